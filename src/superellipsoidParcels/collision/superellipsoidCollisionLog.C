/*---------------------------------------------------------------------------*\
    superellipsoidFoam: superellipsoidCollisionLog (see the header).
\*---------------------------------------------------------------------------*/

#include "superellipsoidCollisionLog.H"
#include "superellipsoidCollisionOutput.H"
#include "Pstream.H"

#include <type_traits>

// * * * * * * * * * * * * * * * Local Functions * * * * * * * * * * * * * //

namespace
{

//- Largest |sum m dv - wall impulses| / (sum m |dv| + sum |wall impulses|)
//  of the substeps in balance (7 doubles each)
Foam::scalar momentumResidual(const Foam::scalarList& balance)
{
    Foam::scalar residual = 0;
    for (Foam::label k = 0; k + 7 <= balance.size(); k += 7)
    {
        if (!(balance[k + 6] > 0)) continue;
        Foam::scalar d2 = 0;
        for (Foam::label i = 0; i < 3; ++i)
        {
            d2 += Foam::sqr(balance[k + i] - balance[k + 3 + i]);
        }
        residual = Foam::max(residual, Foam::sqrt(d2)/balance[k + 6]);
    }
    return residual;
}

} // End anonymous namespace


// * * * * * * * * * * * * Private Member Functions  * * * * * * * * * * * //

void Foam::superellipsoidCollisionLog::reduceCounters
(
    superellipsoid::CollisionDiagnostics& diag,
    const superellipsoidHaloCounters& halo,
    StepTotals& t
) const
{
    // The touching-contact counts are exact (one processor counts each);
    // the work counters (candidates, detections, Newton iterations,
    // impulses) count a contact between an own parcel and a ghost on both
    // processors
    t.truncated = truncated_;
    t.backstops = backstops_;
    t.ghosts = halo.exchanges ? scalar(halo.ghosts)/halo.exchanges : 0;
    t.recordsSent = halo.recordsSent;
    t.exchangeTime = halo.exchangeTime;
    t.waitTime = halo.waitTime;
    if (!Pstream::parRun())
    {
        return;
    }

    DynamicList<scalar> sums, maxima;
    const auto collect = [](DynamicList<scalar>& list)
    {
        return [&list](const auto& x) { list.append(scalar(x)); };
    };
    diag.forEachMember(collect(sums), collect(maxima));
    for (const scalar x : {t.truncated, t.backstops, t.ghosts, t.recordsSent})
    {
        sums.append(x);
    }
    maxima.append(t.exchangeTime);
    maxima.append(t.waitTime);

    scalarList sum(std::move(sums)), maximum(std::move(maxima));
    Pstream::listCombineGather(sum, plusEqOp<scalar>());
    Pstream::listCombineScatter(sum);
    Pstream::listCombineGather(maximum, maxEqOp<scalar>());
    Pstream::listCombineScatter(maximum);

    label iSum = 0, iMax = 0;
    const auto assign = [](const scalarList& list, label& i)
    {
        return [&list, &i](auto& x)
        {
            x = static_cast<std::remove_reference_t<decltype(x)>>(list[i++]);
        };
    };
    diag.forEachMember(assign(sum, iSum), assign(maximum, iMax));
    for (scalar* x : {&t.truncated, &t.backstops, &t.ghosts, &t.recordsSent})
    {
        *x = sum[iSum++];
    }
    t.exchangeTime = maximum[iMax++];
    t.waitTime = maximum[iMax++];
}


void Foam::superellipsoidCollisionLog::reduceBalance
(
    const superellipsoidHaloCounters& halo,
    StepTotals& t
)
{
    // Per substep over all processors
    scalarList balance(std::move(balance_));
    balance_.clear();
    t.impulsesSent = halo.impulsesSent;
    t.impulsesReplaced = halo.impulsesReplaced;
    t.sweepReductions = halo.sweepReductions;
    t.impulseTime = halo.impulseTime;
    t.reductionTime = halo.reductionTime;
    if (Pstream::parRun())
    {
        Pstream::listCombineGather(balance, plusEqOp<scalar>());
        Pstream::listCombineScatter(balance);
        Foam::reduce(t.impulsesSent, sumOp<scalar>());
        Foam::reduce(t.impulsesReplaced, sumOp<scalar>());
        Foam::reduce(t.sweepReductions, sumOp<scalar>());
        t.sweepReductions /= Pstream::nProcs();
        Foam::reduce(t.impulseTime, maxOp<scalar>());
        Foam::reduce(t.reductionTime, maxOp<scalar>());
    }
    t.momentumResidual = momentumResidual(balance);
    t.balanced = balance.size() > 0;
}


// * * * * * * * * * * * * * * * * Constructors  * * * * * * * * * * * * * * //

Foam::superellipsoidCollisionLog::superellipsoidCollisionLog
(
    const Time& time,
    const word& modelName
)
:
    time_(time),
    modelName_(modelName),
    csv_(),
    opened_(false),
    balance_(),
    truncated_(0),
    backstops_(0)
{}


// * * * * * * * * * * * * * * * Member Functions  * * * * * * * * * * * * * //

void Foam::superellipsoidCollisionLog::open()
{
    if (opened_)
    {
        return;
    }
    opened_ = true;
    if (Pstream::master())
    {
        csv_ = superellipsoidCollisionCsv(time_, "collisions.csv");
        csv_() << "time," << superellipsoid::CollisionDiagnostics::csvHeader().c_str()
            << ",truncatedDisplacements,wallBackstops,ghosts" << endl;
    }
}


void Foam::superellipsoidCollisionLog::recordBalance
(
    const superellipsoid::ContactMomentumBalance& b
)
{
    for (int i = 0; i < 3; ++i)
    {
        balance_.append(b.change[i]);
    }
    for (int i = 0; i < 3; ++i)
    {
        balance_.append(b.wallImpulse[i]);
    }
    balance_.append(b.scale);
}


Foam::superellipsoidCollisionLog::StepTotals
Foam::superellipsoidCollisionLog::reduce
(
    superellipsoid::CollisionDiagnostics& diag,
    const superellipsoidHaloCounters& halo
)
{
    StepTotals totals;
    reduceCounters(diag, halo, totals);
    reduceBalance(halo, totals);
    return totals;
}


void Foam::superellipsoidCollisionLog::write
(
    const scalar time,
    const superellipsoid::CollisionDiagnostics& diag,
    const StepTotals& t
)
{
    Info<< "    collisions (" << modelName_ << "): "
        << diag.summary().c_str()
        << ", truncated overlap displacements " << label(t.truncated)
        << ", wall backstops " << label(t.backstops);
    if (t.balanced)
    {
        Info<< ", momentum residual " << t.momentumResidual;
    }
    if (Pstream::parRun())
    {
        Info<< ", ghosts " << t.ghosts << ", contact records sent " << label(t.recordsSent)
            << ", halo exchange " << t.exchangeTime << " s (waiting "
            << t.waitTime << " s)";
        if (t.balanced)
        {
            Info<< ", boundary impulses sent " << label(t.impulsesSent)
                << " (changed " << label(t.impulsesReplaced) << "), impulse exchange "
                << t.impulseTime << " s, sweep reductions " << label(t.sweepReductions)
                << " (" << t.reductionTime << " s)";
        }
    }
    Info<< endl;
    if (t.backstops)
    {
        WarningInFunction
            << label(t.backstops) << " parcel centre(s) reached a wall face at time "
            << time << ": the patch interaction model acted as backstop"
            << " (collision substeps too large?)" << endl;
    }

    if (csv_.valid())
    {
        csv_() << time << ',' << diag.csvRow().c_str() << ','
            << label(t.truncated) << ',' << label(t.backstops) << ',' << t.ghosts << endl;
    }
}


void Foam::superellipsoidCollisionLog::reset()
{
    truncated_ = 0;
    backstops_ = 0;
}


// ************************************************************************* //

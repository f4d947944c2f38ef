/*---------------------------------------------------------------------------*\
    superellipsoidFoam: superellipsoidCollisionModel, the per-step
    diagnostics: one reduction over processors, log line, CSV row and the
    end of the run at rest (stopAtRest).
\*---------------------------------------------------------------------------*/

#include "superellipsoidCollisionModel.H"
#include "Time.H"
#include "Pstream.H"
#include "DynamicList.H"

#include <type_traits>

// * * * * * * * * * * * * * * * Member Functions  * * * * * * * * * * * * * //

void Foam::superellipsoidCollisionModel::openDiagnostics()
{
    // CSV of the per-step diagnostics
    if (Pstream::master())
    {
        const fileName dir
        (
            mesh_.time().globalPath()/"postProcessing"/"superellipsoidCollisions"
           /mesh_.time().timeName(mesh_.time().startTime().value())
        );
        mkDir(dir);
        csv_.reset(new OFstream(dir/"collisions.csv"));
        csv_().precision(12);
        csv_() << "time," << superellipsoid::CollisionDiagnostics::csvHeader().c_str()
            << ",truncatedDisplacements,wallBackstops,ghosts" << endl;
    }
}




void Foam::superellipsoidCollisionModel::endStep(const scalar time)
{
    step_->pairCache().dropUntouched();

    // Energies of the own parcels (system_ also holds ghosts)
    scalar eTrans = 0, eRot = 0;
    for (const superellipsoid::Particle& p : local_)
    {
        eTrans += 0.5*p.mass*p.velocity.squaredNorm();
        eRot += 0.5*p.angularVelocity.dot(p.principalMoments.cwiseProduct(p.angularVelocity));
    }

    // Sums and maxima over processors, in one pass driven by the core's
    // diagnostics struct (forEachMember) plus the layer's own counters.
    // The touching-contact counts are exact (finishSubstep); the work
    // counters (candidates, detections, Newton iterations, impulses) count
    // a contact between an own parcel and a ghost on both processors
    diag_.translationalEnergy = eTrans;
    diag_.rotationalEnergy = eRot;
    scalar truncated = truncatedDisplacements_;
    scalar backstops = wallBackstops_;
    scalar ghosts = exchangesThisStep_ ? scalar(ghostsThisStep_)/exchangesThisStep_ : 0;
    scalar records = recordsSent_;
    scalar exchangeTime = exchangeTime_;
    scalar waitTime = waitTime_;

    if (Pstream::parRun())
    {
        DynamicList<scalar> sums, maxima;
        const auto collect = [](DynamicList<scalar>& list)
        {
            return [&list](const auto& x) { list.append(scalar(x)); };
        };
        diag_.forEachMember(collect(sums), collect(maxima));
        for (const scalar x : {truncated, backstops, ghosts, records})
        {
            sums.append(x);
        }
        maxima.append(exchangeTime);
        maxima.append(waitTime);

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
        diag_.forEachMember(assign(sum, iSum), assign(maximum, iMax));
        for (scalar* x : {&truncated, &backstops, &ghosts, &records})
        {
            *x = sum[iSum++];
        }
        exchangeTime = maximum[iMax++];
        waitTime = maximum[iMax++];
    }
    eTrans = diag_.translationalEnergy;
    eRot = diag_.rotationalEnergy;

    // Momentum balance of the velocity phases, per substep over all
    // processors: |sum m dv - wall impulses| / (sum m |dv| + sum |wall impulses|)
    scalarList balance(std::move(balance_));
    balance_.clear();
    scalar boundary[3] =
    {
        scalar(boundaryImpulsesSent_), scalar(boundaryImpulsesReplaced_), 0
    };
    const long reductions = step_->contactSolver().globalReductions();
    boundary[2] = scalar(reductions - reductionsBefore_);
    reductionsBefore_ = reductions;
    scalar impulseTime = impulseExchangeTime_;
    scalar reductionTime = reductionTime_;
    if (Pstream::parRun())
    {
        Pstream::listCombineGather(balance, plusEqOp<scalar>());
        Pstream::listCombineScatter(balance);
        for (scalar& x : boundary)
        {
            reduce(x, sumOp<scalar>());
        }
        boundary[2] /= Pstream::nProcs();
        reduce(impulseTime, maxOp<scalar>());
        reduce(reductionTime, maxOp<scalar>());
    }
    scalar momentumResidual = 0;
    for (label k = 0; k + 7 <= balance.size(); k += 7)
    {
        if (!(balance[k + 6] > 0)) continue;
        scalar d2 = 0;
        for (label i = 0; i < 3; ++i)
        {
            d2 += sqr(balance[k + i] - balance[k + 3 + i]);
        }
        momentumResidual = max(momentumResidual, Foam::sqrt(d2)/balance[k + 6]);
    }

    // At rest: kinetic energy below stopAtRest of its peak (after the
    // peak). The energies are the global sums, so every processor decides
    // alike. The run ends with THIS time step, which is written: the
    // parcels are final here, writeAndEnd writes now and marks the step a
    // write time, so the solver's runTime.write() at the end of the step
    // writes it again with the fluid solved (stopAt writeNow would only
    // act at the next time increment, one step later)
    const scalar energy = eTrans + eRot;
    peakEnergy_ = max(peakEnergy_, energy);
    if (stopAtRest_ > 0 && !stopSet_ && peakEnergy_ > 0 && energy < stopAtRest_*peakEnergy_)
    {
        stopSet_ = true;
        Info<< "    collisions (" << modelName_ << "): at rest at time " << time
            << " (kinetic energy " << energy/peakEnergy_ << " of its peak < stopAtRest "
            << stopAtRest_ << "): the run ends with this time step" << endl;
        const_cast<Time&>(mesh_.time()).writeAndEnd();
    }

    Info<< "    collisions (" << modelName_ << "): "
        << diag_.summary().c_str()
        << ", truncated overlap displacements " << label(truncated)
        << ", wall backstops " << label(backstops);
    if (balance.size())
    {
        Info<< ", momentum residual " << momentumResidual;
    }
    if (Pstream::parRun())
    {
        Info<< ", ghosts " << ghosts << ", contact records sent " << label(records)
            << ", halo exchange " << exchangeTime << " s (waiting "
            << waitTime << " s)";
        if (balance.size())
        {
            Info<< ", boundary impulses sent " << label(boundary[0])
                << " (changed " << label(boundary[1]) << "), impulse exchange "
                << impulseTime << " s, sweep reductions " << label(boundary[2])
                << " (" << reductionTime << " s)";
        }
    }
    Info<< endl;
    if (backstops)
    {
        WarningInFunction
            << label(backstops) << " parcel centre(s) reached a wall face at time "
            << time << ": the patch interaction model acted as backstop"
            << " (collision substeps too large?)" << endl;
    }

    if (csv_.valid())
    {
        csv_() << time << ',' << diag_.csvRow().c_str() << ','
            << label(truncated) << ',' << label(backstops) << ',' << ghosts << endl;
    }

    diag_ = superellipsoid::CollisionDiagnostics();
    truncatedDisplacements_ = 0;
    wallBackstops_ = 0;
    ghostsThisStep_ = 0;
    exchangesThisStep_ = 0;
    exchangeTime_ = 0;
    waitTime_ = 0;
    recordsSent_ = 0;
    boundaryImpulsesSent_ = 0;
    boundaryImpulsesReplaced_ = 0;
    impulseExchangeTime_ = 0;
    reductionTime_ = 0;
}



// ************************************************************************* //

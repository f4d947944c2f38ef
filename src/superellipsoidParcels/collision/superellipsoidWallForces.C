/*---------------------------------------------------------------------------*\
    superellipsoidFoam: superellipsoidWallForces (see the header).
\*---------------------------------------------------------------------------*/

#include "superellipsoidWallForces.H"
#include "superellipsoidCollisionOutput.H"
#include "Pstream.H"
#include "ListOps.H"

// * * * * * * * * * * * * * * * * Constructors  * * * * * * * * * * * * * * //

Foam::superellipsoidWallForces::superellipsoidWallForces
(
    const Time& time,
    const polyBoundaryMesh& patches
)
:
    time_(time),
    patches_(patches),
    walls_(),
    impulse_(),
    csv_()
{}


// * * * * * * * * * * * * * * * Member Functions  * * * * * * * * * * * * * //

void Foam::superellipsoidWallForces::open(const superellipsoid::WallSet& walls)
{
    if (csv_.valid() || walls_.size())
    {
        return;
    }
    labelHashSet ids;
    for (const int patchi : walls.patch)
    {
        ids.insert(patchi);
    }
    walls_ = ids.sortedToc();
    impulse_.assign(walls_.size(), superellipsoid::Vector3::Zero());
    if (Pstream::master() && walls_.size())
    {
        csv_ = superellipsoidCollisionCsv(time_, "wallForces.csv");
        csv_() << "time";
        for (const label patchi : walls_)
        {
            const word& name = patches_[patchi].name();
            csv_() << ',' << name << "_x," << name << "_y," << name << "_z";
        }
        csv_() << endl;
    }
}


void Foam::superellipsoidWallForces::add
(
    const superellipsoid::WallSet& walls,
    const std::vector<superellipsoid::StepContact>& contacts,
    const std::vector<char>& owned
)
{
    for (const superellipsoid::StepContact& c : contacts)
    {
        // The wall is b; its impulse is the contact's (on b). A contact
        // without one (a resting sphere's round-off touch) adds zeros
        if (c.b >= 0 || !owned[c.a] || c.impulse.isZero(0)) continue;
        const label k = findSortedIndex(walls_, label(walls.patch[c.face]));
        if (k >= 0)
        {
            impulse_[k] += c.impulse;
        }
    }
}


void Foam::superellipsoidWallForces::write(const scalar time, const scalar Dt)
{
    if (walls_.empty())
    {
        return;
    }
    scalarList force(3*walls_.size());
    forAll(walls_, k)
    {
        for (label i = 0; i < 3; ++i)
        {
            force[3*k + i] = impulse_[k][i]/Dt;
        }
    }
    Pstream::listCombineGather(force, plusEqOp<scalar>());
    Pstream::listCombineScatter(force);

    Info<< "    wall forces [N]:";
    forAll(walls_, k)
    {
        Info<< ' ' << patches_[walls_[k]].name() << " ("
            << force[3*k] << ' ' << force[3*k + 1] << ' ' << force[3*k + 2] << ')';
    }
    Info<< endl;
    if (csv_.valid())
    {
        csv_() << time;
        for (const scalar f : force)
        {
            csv_() << ',' << f;
        }
        csv_() << endl;
    }
    impulse_.assign(walls_.size(), superellipsoid::Vector3::Zero());
}


// ************************************************************************* //

/*---------------------------------------------------------------------------*\
    superellipsoidFoam: superellipsoidPeriodicImages (see the header).
\*---------------------------------------------------------------------------*/

#include "superellipsoidPeriodicImages.H"
#include "polyMesh.H"
#include "SubField.H"
#include "eigenConversions.H"
#include "cyclicPolyPatch.H"
#include "cyclicAMIPolyPatch.H"
#include "processorCyclicPolyPatch.H"

#include <cmath>

// * * * * * * * * * * * * * * * Local Functions * * * * * * * * * * * * * //

namespace
{

//- Area-weighted centroid sum, area vector and area of the faces of a
//  patch side: the patch itself and the processor cyclics that refer to
//  it (a cyclic split between processors), summed over all processors
struct SideSums
{
    Foam::vector centroid = Foam::Zero;
    Foam::vector areaVector = Foam::Zero;
    Foam::scalar area = 0;
};

SideSums sideSums(const Foam::polyBoundaryMesh& pbm, const Foam::label patchi)
{
    using namespace Foam;
    SideSums s;
    for (const polyPatch& side : pbm)
    {
        const processorCyclicPolyPatch* pcp = isA<processorCyclicPolyPatch>(side);
        if (side.index() != patchi && !(pcp && pcp->referPatchID() == patchi))
        {
            continue;
        }
        forAll(side, i)
        {
            const scalar a = mag(side.faceAreas()[i]);
            s.centroid += a*side.faceCentres()[i];
            s.areaVector += side.faceAreas()[i];
            s.area += a;
        }
    }
    reduce(s.centroid, sumOp<vector>());
    reduce(s.areaVector, sumOp<vector>());
    reduce(s.area, sumOp<scalar>());
    return s;
}


//- The rotation about the axis through centre that turns the outward
//  normal n1 of the neighbour side into the inward normal -n0 of the
//  owner side (it maps the neighbour side onto the owner side); false if
//  the normals' components along the axis differ (not such a rotation)
bool rotationBetweenSides
(
    const Foam::vector& axis,
    const Foam::point& centre,
    const Foam::vector& n0,
    const Foam::vector& n1,
    superellipsoid::PeriodicTransform& T
)
{
    using namespace Foam::superellipsoidConversions;
    const superellipsoid::Vector3 a = toEigen(axis).normalized();
    const superellipsoid::Vector3 from = toEigen(n1), to = -toEigen(n0);
    if (std::abs(a.dot(from) - a.dot(to)) > 1e-9)
    {
        return false;
    }
    const superellipsoid::Vector3 u = from - a.dot(from)*a, w = to - a.dot(to)*a;
    if (u.norm() < 1e-9 || w.norm() < 1e-9)
    {
        return false;
    }
    const double angle = std::atan2(a.dot(u.cross(w)), u.dot(w));
    T.rotation = Eigen::AngleAxisd(angle, a).toRotationMatrix();
    // x' = R (x - c) + c
    T.translation = toEigen(centre) - T.rotation*toEigen(centre);
    return true;
}


//- The inverse of T
superellipsoid::PeriodicTransform inverse(const superellipsoid::PeriodicTransform& T)
{
    superellipsoid::PeriodicTransform inv;
    inv.rotation = T.rotation.transpose();
    inv.translation = -(inv.rotation*T.translation);
    return inv;
}


//- T1 after T2: x -> R1 (R2 x + t2) + t1
superellipsoid::PeriodicTransform compose
(
    const superellipsoid::PeriodicTransform& T1,
    const superellipsoid::PeriodicTransform& T2
)
{
    superellipsoid::PeriodicTransform T;
    T.rotation = T1.rotation*T2.rotation;
    T.translation = T1.rotation*T2.translation + T1.translation;
    return T;
}


//- Every image of a domain with these pairs: each pair's transform, its
//  inverse or neither, at least one (3^P - 1: across a face, an edge or a
//  corner of a box periodic in P directions), the first pair's digit
//  varying fastest (one pair: T, T^-1)
std::vector<superellipsoid::PeriodicTransform> allImages
(
    const std::vector<superellipsoid::PeriodicTransform>& pairs
)
{
    long n = 1;
    for (std::size_t i = 0; i < pairs.size(); ++i) n *= 3;
    std::vector<superellipsoid::PeriodicTransform> images;
    for (long c = 1; c < n; ++c)
    {
        superellipsoid::PeriodicTransform T;
        long digits = c;
        for (const superellipsoid::PeriodicTransform& pair : pairs)
        {
            const long d = digits % 3;
            digits /= 3;
            if (d) T = compose(d == 1 ? pair : inverse(pair), T);
        }
        images.push_back(T);
    }
    return images;
}

} // End anonymous namespace


// * * * * * * * * * * * * Private Member Functions  * * * * * * * * * * * //

bool Foam::superellipsoidPeriodicImages::pairTransform
(
    const polyBoundaryMesh& pbm,
    const polyPatch& pp,
    superellipsoid::PeriodicTransform& T
)
{
    const cyclicPolyPatch* cpp = isA<cyclicPolyPatch>(pp);
    const cyclicAMIPolyPatch* app = isA<cyclicAMIPolyPatch>(pp);
    const coupledPolyPatch& coupled = refCast<const coupledPolyPatch>(pp);
    const label neighbour = cpp ? cpp->neighbPatchID() : app->neighbPatchID();
    const SideSums s0 = sideSums(pbm, pp.index());
    const SideSums s1 = sideSums(pbm, neighbour);
    const vector n0 = s0.areaVector/mag(s0.areaVector);
    const vector n1 = s1.areaVector/mag(s1.areaVector);

    if (coupled.transform() == coupledPolyPatch::ROTATIONAL)
    {
        return rotationBetweenSides
        (
            cpp ? cpp->rotationAxis() : app->rotationAxis(),
            cpp ? cpp->rotationCentre() : app->rotationCentre(),
            n0, n1, T
        );
    }
    if (app)
    {
        // The given separation (images go both ways: its sign does not
        // matter)
        T.translation = superellipsoidConversions::toEigen(app->separationVector());
        return app->transform() == coupledPolyPatch::TRANSLATIONAL;
    }
    // A translation from the neighbour side to the owner side: the
    // difference of the area-weighted centroids (opposite normals and equal
    // areas, else not a translation)
    T.translation = superellipsoidConversions::toEigen
    (
        s0.centroid/s0.area - s1.centroid/s1.area
    );
    return mag(n0 + n1) <= 1e-9 && mag(s0.area - s1.area) <= 1e-9*s0.area;
}


// * * * * * * * * * * * * * * * * Constructors  * * * * * * * * * * * * * * //

Foam::superellipsoidPeriodicImages::superellipsoidPeriodicImages
(
    const polyBoundaryMesh& pbm
)
:
    transforms_(),
    stride_(1L << 30)
{
    std::vector<superellipsoid::PeriodicTransform> pairs;
    for (const polyPatch& pp : pbm)
    {
        const cyclicPolyPatch* cpp = isA<cyclicPolyPatch>(pp);
        const cyclicAMIPolyPatch* app = isA<cyclicAMIPolyPatch>(pp);
        if (!(cpp && cpp->owner()) && !(app && app->owner()))
        {
            continue;
        }
        superellipsoid::PeriodicTransform T;
        if (!pairTransform(pbm, pp, T))
        {
            Info<< "    superellipsoid collisions: " << pp.type() << ' '
                << pp.name() << " is neither a translation nor a rotation"
                << " about its rotationAxis: no contacts across it" << endl;
            continue;
        }
        pairs.push_back(T);
        Info<< "    superellipsoid collisions: " << pp.type() << ' ' << pp.name()
            << ": images of the parcels within reach, x' = R x + t and back, R = "
            << superellipsoidConversions::toFoam(T.rotation) << ", t = "
            << superellipsoidConversions::toFoam(T.translation) << endl;
    }
    if (pairs.size() > maxCyclicPairs)
    {
        FatalErrorInFunction
            << pairs.size() << " cyclic pairs carry contacts; at most "
            << maxCyclicPairs << " are supported (3^P - 1 images per parcel)"
            << exit(FatalError);
    }
    transforms_ = allImages(pairs);

    // The largest power of two that keeps every image id below 2^31 - 1
    // (the pair cache's keys)
    while (long(transforms_.size() + 1)*stride_ > (1L << 31) - 1)
    {
        stride_ /= 2;
    }
    if (pairs.size() > 1)
    {
        Info<< "    superellipsoid collisions: " << transforms_.size()
            << " periodic images per parcel within reach (across faces, edges"
            << " and corners), parcel ids below " << stride_ << endl;
    }
}


// * * * * * * * * * * * * * * * Member Functions  * * * * * * * * * * * * * //

void Foam::superellipsoidPeriodicImages::checkId
(
    const superellipsoid::Particle& p
) const
{
    if (p.id >= stride_)
    {
        FatalErrorInFunction
            << "Parcel id " << p.id << " >= " << stride_
            << ": no room for the ids of its " << transforms_.size()
            << " periodic images" << exit(FatalError);
    }
}


superellipsoid::Particle Foam::superellipsoidPeriodicImages::image
(
    const superellipsoid::Particle& p,
    const std::size_t k
) const
{
    return superellipsoid::periodicImage(p, transforms_[k], p.id + long(k + 1)*stride_);
}


// ************************************************************************* //

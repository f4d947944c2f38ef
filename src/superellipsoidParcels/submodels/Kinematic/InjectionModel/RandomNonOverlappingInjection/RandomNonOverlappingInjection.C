/*---------------------------------------------------------------------------*\
    superellipsoidFoam: RandomNonOverlappingInjection (see the header).
\*---------------------------------------------------------------------------*/

#include "RandomNonOverlappingInjection.H"
#include "SuperellipsoidCloud.H"
#include "CollidingCloud.H"
#include "superellipsoidDictionaryChecks.H"
#include "meshSearch.H"
#include "indexedOctree.H"
#include "treeDataFace.H"
#include "emptyPolyPatch.H"
#include "mathematicalConstants.H"

#include <cmath>
#include <random>
#include <unordered_map>
#include <vector>

// * * * * * * * * * * * * * * * Local Functions * * * * * * * * * * * * * //

namespace
{

//- Accepted centres in a hashed grid of cell size h = 2 Rb: a new centre
//  is checked against the 27 neighbouring cells only
class centreGrid
{
    Foam::point origin_;
    Foam::scalar h_;
    std::unordered_map<std::int64_t, std::vector<Foam::label>> cells_;

    std::int64_t key(const Foam::point& x, const int di, const int dj, const int dk) const
    {
        const std::int64_t i = std::int64_t(std::floor((x.x() - origin_.x())/h_)) + di;
        const std::int64_t j = std::int64_t(std::floor((x.y() - origin_.y())/h_)) + dj;
        const std::int64_t k = std::int64_t(std::floor((x.z() - origin_.z())/h_)) + dk;
        return (i*73856093) ^ (j*19349663) ^ (k*83492791);
    }

public:

    centreGrid(const Foam::point& origin, const Foam::scalar h)
    :
        origin_(origin),
        h_(h),
        cells_()
    {}

    //- No accepted centre closer than h to x
    bool free(const Foam::point& x, const Foam::UList<Foam::point>& accepted) const
    {
        for (int di = -1; di <= 1; ++di)
        {
            for (int dj = -1; dj <= 1; ++dj)
            {
                for (int dk = -1; dk <= 1; ++dk)
                {
                    const auto it = cells_.find(key(x, di, dj, dk));
                    if (it == cells_.end()) continue;
                    for (const Foam::label q : it->second)
                    {
                        if (Foam::magSqr(accepted[q] - x) < Foam::sqr(h_)) return false;
                    }
                }
            }
        }
        return true;
    }

    //- Add accepted centre q at x
    void insert(const Foam::point& x, const Foam::label q)
    {
        cells_[key(x, 0, 0, 0)].push_back(q);
    }
};

} // End anonymous namespace


// * * * * * * * * * * * * * Private Member Functions  * * * * * * * * * * * //

template<class CloudType>
void Foam::RandomNonOverlappingInjection<CloudType>::readCoeffs()
{
    namespace checks = superellipsoidDictionaryChecks;
    const dictionary& dict = this->coeffDict();

    // The keywords of InjectionModel (v1912) and of this model
    checks::checkKeywords
    (
        dict,
        {
            "type", "massTotal", "parcelBasisType", "nParticle", "SOI",
            "minParticlesPerParcel", "injectorID",
            "nParcels", "U0", "seed", "bounds", "cellZone", "clearance",
            "maxAttempts"
        },
        "injection model randomNonOverlappingInjection"
    );

    nParcels_ = checks::readLabel(dict, "nParcels");
    checks::checkRange<label>(dict, "nParcels", nParcels_, 1);

    U0_ = checks::readVectorOrDefault(dict, "U0", Zero);
    seed_ = checks::readLabelOrDefault(dict, "seed", 1);
    checks::checkRange<label>(dict, "seed", seed_, 0);

    if (dict.found("bounds"))
    {
        bounds_ = dict.get<boundBox>("bounds");
        if (!(bounds_.min() < bounds_.max()))
        {
            FatalIOErrorInFunction(dict)
                << "Bad entry bounds " << bounds_.min() << ' ' << bounds_.max()
                << ": needs min < max in every component" << nl
                << exit(FatalIOError);
        }
    }

    cellZoneName_ = dict.getOrDefault<word>("cellZone", word::null);
    if
    (
        !cellZoneName_.empty()
     && this->owner().mesh().cellZones().findZoneID(cellZoneName_) < 0
    )
    {
        FatalIOErrorInFunction(dict)
            << "Bad entry cellZone " << cellZoneName_ << ": no such cellZone;"
            << " available: " << this->owner().mesh().cellZones().names() << nl
            << exit(FatalIOError);
    }

    clearance_ = checks::readScalarOrDefault(dict, "clearance", 0);
    checks::checkRange<scalar>(dict, "clearance", clearance_, 0);

    maxAttempts_ = checks::readLabelOrDefault(dict, "maxAttempts", 10000*nParcels_);
    checks::checkRange<label>
    (
        dict, "maxAttempts", maxAttempts_, nParcels_, labelMax, "nParcels"
    );
}


template<class CloudType>
Foam::scalar Foam::RandomNonOverlappingInjection<CloudType>::boundingRadius()
{
    // The injected shape is known to the superellipsoid cloud only (it is
    // constructed after its injection models, hence read here, lazily)
    typedef SuperellipsoidCloud<CollidingCloud<CloudType>> seCloudType;
    const seCloudType* cloudPtr = dynamic_cast<const seCloudType*>(&this->owner());
    if (!cloudPtr)
    {
        FatalIOErrorInFunction(this->coeffDict())
            << "Bad entry type " << typeName << ": cloud "
            << this->owner().name() << " is not a superellipsoid cloud" << nl
            << exit(FatalIOError);
    }
    const dictionary& inj = this->owner().particleProperties().subDict("injectedParcels");
    const label id = cloudPtr->shapes().find(inj.get<word>("shape"), inj, "shape");
    const superellipsoidShapeTable::entry& e = cloudPtr->shapes()[id];
    dEq_ = e.dEq;
    return e.shape.boundingRadius();
}


template<class CloudType>
Foam::labelList
Foam::RandomNonOverlappingInjection<CloudType>::boundaryFaces(const polyMesh& mesh)
{
    DynamicList<label> faces;
    for (const polyPatch& pp : mesh.boundaryMesh())
    {
        if (pp.coupled() || isA<emptyPolyPatch>(pp))
        {
            continue;
        }
        forAll(pp, i)
        {
            faces.append(pp.start() + i);
        }
    }
    return labelList(faces);
}


template<class CloudType>
Foam::boundBox Foam::RandomNonOverlappingInjection<CloudType>::samplingBox
(
    const scalar Rb
) const
{
    // The global mesh bounds, intersected with 'bounds' if given, shrunk
    // by Rb
    const polyMesh& mesh = this->owner().mesh();
    boundBox box(mesh.bounds());
    if (!bounds_.empty())
    {
        box.min() = max(box.min(), bounds_.min());
        box.max() = min(box.max(), bounds_.max());
    }
    box.min() += point::uniform(Rb);
    box.max() -= point::uniform(Rb);
    if (!(box.min() < box.max()))
    {
        FatalIOErrorInFunction(this->coeffDict())
            << "Bad entry bounds " << bounds_.min() << ' ' << bounds_.max()
            << ": its intersection with the mesh bounds " << mesh.bounds()
            << " holds no bounding sphere (diameter " << 2*Rb << ")"
            << nl << exit(FatalIOError);
    }
    return box;
}


template<class CloudType>
void Foam::RandomNonOverlappingInjection<CloudType>::tooFewPlaced
(
    const label placed,
    const scalar Rb
) const
{
    FatalIOErrorInFunction(this->coeffDict())
        << "Bad entry maxAttempts " << maxAttempts_ << ": placed only "
        << placed << " of nParcels " << nParcels_
        << " bounding spheres (radius " << Rb << ") without overlap;"
        << " reduce nParcels or enlarge the region" << nl
        << exit(FatalIOError);
}


template<class CloudType>
void Foam::RandomNonOverlappingInjection<CloudType>::generatePositions()
{
    generated_ = true;
    const polyMesh& mesh = this->owner().mesh();

    // Bounding sphere of a parcel, with half the clearance to each side
    const scalar Rb = boundingRadius() + 0.5*clearance_;

    // Boundary faces a bounding sphere must not touch (this processor's)
    const labelList faces(boundaryFaces(mesh));
    Random rndBb(261782);
    treeBoundBox overallBb(mesh.points());
    overallBb = overallBb.extend(rndBb, 1e-4);
    overallBb.min() -= point::uniform(ROOTVSMALL);
    overallBb.max() += point::uniform(ROOTVSMALL);
    const indexedOctree<treeDataFace> boundaryTree
    (
        treeDataFace(false, mesh, faces), overallBb, 8, 10, 3.0
    );
    meshSearch search(mesh);
    const label zoneId =
        cellZoneName_.empty() ? -1 : mesh.cellZones().findZoneID(cellZoneName_);

    // Inside the mesh (zone) on some processor, and no boundary face
    // within Rb on any processor. Collective
    const auto admissible = [&](const point& x)
    {
        const label celli = search.findCell(x);
        const bool inside =
            celli >= 0 && (zoneId < 0 || mesh.cellZones().whichZone(celli) == zoneId);
        if (!returnReduce(inside, orOp<bool>()))
        {
            return false;
        }
        const bool touches = faces.size() && boundaryTree.findNearest(x, sqr(Rb)).hit();
        return !returnReduce(touches, orOp<bool>());
    };

    const boundBox box(samplingBox(Rb));
    centreGrid grid(box.min(), 2*Rb);
    std::mt19937_64 rng(seed_);
    std::uniform_real_distribution<double> u(0, 1);
    DynamicList<point> accepted(nParcels_);
    label attempts = 0;
    while (accepted.size() < nParcels_)
    {
        if (attempts == maxAttempts_)
        {
            tooFewPlaced(accepted.size(), Rb);
        }
        ++attempts;
        const point x
        (
            box.min().x() + u(rng)*box.span().x(),
            box.min().y() + u(rng)*box.span().y(),
            box.min().z() + u(rng)*box.span().z()
        );
        // The sequence is the same on all processors: so are the accepted
        if (grid.free(x, accepted) && admissible(x))
        {
            grid.insert(x, accepted.size());
            accepted.append(x);
        }
    }

    positions_.transfer(accepted);
    injectorCells_.setSize(positions_.size(), -1);
    injectorTetFaces_.setSize(positions_.size(), -1);
    injectorTetPts_.setSize(positions_.size(), -1);
    updateMesh();

    // Packing of the bounding spheres in the sampling region (information)
    Info<< "    " << this->modelName() << " (" << typeName << "): "
        << positions_.size() << " positions, bounding radius " << Rb
        << ", " << attempts << " candidates, seed " << seed_ << endl;

    this->volumeTotal_ = positions_.size()*constant::mathematical::pi/6*pow3(dEq_);
}


// * * * * * * * * * * * * * * * * Constructors  * * * * * * * * * * * * * * //

template<class CloudType>
Foam::RandomNonOverlappingInjection<CloudType>::RandomNonOverlappingInjection
(
    const dictionary& dict,
    CloudType& owner,
    const word& modelName
)
:
    InjectionModel<CloudType>(dict, owner, modelName, typeName),
    nParcels_(0),
    U0_(Zero),
    seed_(1),
    bounds_(),
    cellZoneName_(),
    clearance_(0),
    maxAttempts_(0),
    positions_(),
    injectorCells_(),
    injectorTetFaces_(),
    injectorTetPts_(),
    dEq_(0),
    generated_(false)
{
    readCoeffs();

    // Placeholder until the positions are generated (at SOI): InjectionModel
    // needs a positive total volume
    this->volumeTotal_ = nParcels_*VSMALL;
}


template<class CloudType>
Foam::RandomNonOverlappingInjection<CloudType>::RandomNonOverlappingInjection
(
    const RandomNonOverlappingInjection<CloudType>& im
)
:
    InjectionModel<CloudType>(im),
    nParcels_(im.nParcels_),
    U0_(im.U0_),
    seed_(im.seed_),
    bounds_(im.bounds_),
    cellZoneName_(im.cellZoneName_),
    clearance_(im.clearance_),
    maxAttempts_(im.maxAttempts_),
    positions_(im.positions_),
    injectorCells_(im.injectorCells_),
    injectorTetFaces_(im.injectorTetFaces_),
    injectorTetPts_(im.injectorTetPts_),
    dEq_(im.dEq_),
    generated_(im.generated_)
{}


// * * * * * * * * * * * * * * * Member Functions  * * * * * * * * * * * * * //

template<class CloudType>
void Foam::RandomNonOverlappingInjection<CloudType>::updateMesh()
{
    // Every position is inside the mesh (checked when generated): exactly
    // one processor gets its cell
    forAll(positions_, i)
    {
        this->findCellAtPosition
        (
            injectorCells_[i],
            injectorTetFaces_[i],
            injectorTetPts_[i],
            positions_[i],
            true
        );
    }
}


template<class CloudType>
Foam::scalar Foam::RandomNonOverlappingInjection<CloudType>::timeEnd() const
{
    // Instantaneous injection (a finite interval, as in manualInjection)
    return ROOTVSMALL;
}


template<class CloudType>
Foam::label Foam::RandomNonOverlappingInjection<CloudType>::parcelsToInject
(
    const scalar time0,
    const scalar time1
)
{
    if ((0 >= time0) && (0 < time1))
    {
        if (!generated_)
        {
            generatePositions();
        }
        return positions_.size();
    }
    return 0;
}


template<class CloudType>
Foam::scalar Foam::RandomNonOverlappingInjection<CloudType>::volumeToInject
(
    const scalar time0,
    const scalar time1
)
{
    if ((0 >= time0) && (0 < time1))
    {
        return this->volumeTotal_;
    }
    return 0;
}


template<class CloudType>
void Foam::RandomNonOverlappingInjection<CloudType>::setPositionAndCell
(
    const label parcelI,
    const label,
    const scalar,
    vector& position,
    label& cellOwner,
    label& tetFacei,
    label& tetPti
)
{
    position = positions_[parcelI];
    cellOwner = injectorCells_[parcelI];
    tetFacei = injectorTetFaces_[parcelI];
    tetPti = injectorTetPts_[parcelI];
}


template<class CloudType>
void Foam::RandomNonOverlappingInjection<CloudType>::setProperties
(
    const label,
    const label,
    const scalar,
    typename CloudType::parcelType& parcel
)
{
    parcel.U() = U0_;
    // The cloud sets d to the shape's volume-equivalent diameter
    parcel.d() = dEq_;
}


// ************************************************************************* //

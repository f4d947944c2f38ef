/*---------------------------------------------------------------------------*\
    superellipsoidFoam: VTK PolyData output of superellipsoid parcels.
\*---------------------------------------------------------------------------*/

#include "SuperellipsoidVTK.H"
#include "CollidingCloud.H"
#include "SuperellipsoidCloud.H"
#include "superellipsoidDictionaryChecks.H"
#include "OSspecific.H"
#include "Pstream.H"

#include <algorithm>
#include <exception>

// * * * * * * * * * * * * * Private Member Functions  * * * * * * * * * * * //

template<class CloudType>
void Foam::SuperellipsoidVTK<CloudType>::readCoeffs(const dictionary& dict)
{
    namespace checks = superellipsoidDictionaryChecks;

    checks::checkKeywords
    (
        dict, {"type", "resolution", "surfaces", "particles", "format"},
        "cloud function superellipsoidVTK"
    );

    if (dict.found("resolution", keyType::LITERAL))
    {
        const labelList r = checks::readLabels
        (
            dict, "resolution", 2, "(nEta nOmega), two integers"
        );
        checks::checkRange<label>(dict, "resolution", r[0], 2, maxResolution, "nEta");
        checks::checkRange<label>(dict, "resolution", r[1], 3, maxResolution, "nOmega");
        resolution_.nEta = int(r[0]);
        resolution_.nOmega = int(r[1]);
    }

    // ascii or binary (raw appended data)
    const word format = dict.getOrDefault<word>("format", "ascii");
    if (format != "ascii" && format != "binary")
    {
        FatalIOErrorInFunction(dict)
            << "Cloud function " << this->modelName() << " (superellipsoidVTK):"
            << " bad entry format " << format << ": expected ascii or binary"
            << exit(FatalIOError);
    }
    format_ =
        format == "binary"
      ? superellipsoid::VtkFormat::binary
      : superellipsoid::VtkFormat::ascii;

    surfaces_ = checks::readSwitchOrDefault(dict, "surfaces", true);
    particles_ = checks::readSwitchOrDefault(dict, "particles", true);
    if (!surfaces_ && !particles_)
    {
        WarningInFunction
            << "Cloud function " << this->modelName()
            << " (superellipsoidVTK): surfaces and particles are both off:"
            << " nothing is written" << endl;
    }
}


template<class CloudType>
std::vector<::superellipsoid::Superellipsoid>
Foam::SuperellipsoidVTK<CloudType>::coreShapes() const
{
    typedef SuperellipsoidCloud<CollidingCloud<CloudType>> seCloudType;

    const seCloudType* cloud = dynamic_cast<const seCloudType*>(&this->owner());
    if (!cloud)
    {
        FatalErrorInFunction
            << "Cloud function superellipsoidVTK needs a superellipsoid cloud"
            << " (SuperellipsoidCloud); cloud " << this->owner().name()
            << " is not one" << exit(FatalError);
    }
    std::vector<superellipsoid::Superellipsoid> shapes;
    for (label i = 0; i < cloud->shapes().size(); ++i)
    {
        shapes.push_back(cloud->shapes()[i].shape);
    }
    return shapes;
}


template<class CloudType>
std::vector<::superellipsoid::VtkParticle>
Foam::SuperellipsoidVTK<CloudType>::gatherParticles() const
{
    // This processor's parcels: recordSize scalars each (labels below 2^53
    // are exact as scalars)
    DynamicList<scalar> local(recordSize*this->owner().size());
    for (const parcelType& p : this->owner())
    {
        const superellipsoid::Quaternion e = p.orientation();
        const point x = p.position();
        const vector omega = p.omega();     // global frame
        const scalar record[recordSize] =
        {
            scalar(p.origProc()), scalar(p.origId()), scalar(p.shapeId()),
            x.x(), x.y(), x.z(),
            e.w(), e.x(), e.y(), e.z(),
            p.U().x(), p.U().y(), p.U().z(),
            omega.x(), omega.y(), omega.z()
        };
        for (const scalar v : record)
        {
            local.append(v);
        }
    }

    List<scalarList> all(Pstream::nProcs());
    all[Pstream::myProcNo()].transfer(local);
    Pstream::gatherList(all);

    std::vector<superellipsoid::VtkParticle> particles;
    if (!Pstream::master())
    {
        return particles;
    }

    std::vector<std::pair<std::pair<label, label>, superellipsoid::VtkParticle>> keyed;
    const long nProcs = Pstream::nProcs();
    for (const scalarList& data : all)
    {
        for (label k = 0; k + recordSize <= data.size(); k += recordSize)
        {
            const scalar* r = &data[k];
            const label origProc = label(r[0]), origId = label(r[1]);
            superellipsoid::VtkParticle v;
            v.id = long(origId)*nProcs + long(origProc);
            v.shapeId = int(r[2]);
            v.pose.position = superellipsoid::Vector3(r[3], r[4], r[5]);
            v.pose.orientation = superellipsoid::Quaternion(r[6], r[7], r[8], r[9]);
            v.velocity = superellipsoid::Vector3(r[10], r[11], r[12]);
            v.angularVelocity = superellipsoid::Vector3(r[13], r[14], r[15]);
            keyed.push_back({{origProc, origId}, v});
        }
    }
    std::sort
    (
        keyed.begin(), keyed.end(),
        [](const auto& a, const auto& b) { return a.first < b.first; }
    );
    particles.reserve(keyed.size());
    for (const auto& kv : keyed)
    {
        particles.push_back(kv.second);
    }
    return particles;
}


// * * * * * * * * * * * * * Protected Member Functions  * * * * * * * * * * //

template<class CloudType>
void Foam::SuperellipsoidVTK<CloudType>::write()
{
    if (!surfaces_ && !particles_)
    {
        return;
    }

    const std::vector<superellipsoid::VtkParticle> particles = gatherParticles();
    if (!Pstream::master())
    {
        return;
    }

    const std::vector<superellipsoid::Superellipsoid> shapes = coreShapes();
    const Time& time = this->owner().time();
    const word cloudName = this->owner().name();
    const word index = Foam::name(time.timeIndex());
    const scalar t = time.value();

    mkDir(vtkDir_);
    try
    {
        if (surfaces_)
        {
            const word file = cloudName + "_surfaces_" + index + ".vtp";
            const superellipsoid::VtkWriteSummary s = superellipsoid::writeSurfacesVtp
            (
                vtkDir_/file, particles, shapes, resolution_, format_
            );
            surfaceSeries_.add(file, t);
            Info<< "    superellipsoidVTK: " << s.particles << " parcels, "
                << s.cells << " triangles -> "
                << time.relativePath(vtkDir_/file) << endl;
        }
        if (particles_)
        {
            const word file = cloudName + "_particles_" + index + ".vtp";
            superellipsoid::writeParticlesVtp(vtkDir_/file, particles, shapes, format_);
            particleSeries_.add(file, t);
            Info<< "    superellipsoidVTK: " << particles.size() << " parcels -> "
                << time.relativePath(vtkDir_/file) << endl;
        }
    }
    catch (const std::exception& err)
    {
        FatalErrorInFunction
            << "Cloud function " << this->modelName() << " (superellipsoidVTK)"
            << " at time " << t << ": " << err.what() << exit(FatalError);
    }
}


// * * * * * * * * * * * * * * * * Constructors  * * * * * * * * * * * * * * //

template<class CloudType>
Foam::SuperellipsoidVTK<CloudType>::SuperellipsoidVTK
(
    const dictionary& dict,
    CloudType& owner,
    const word& modelName
)
:
    CloudFunctionObject<CloudType>(dict, owner, modelName, typeName),
    resolution_(),
    format_(superellipsoid::VtkFormat::ascii),
    surfaces_(true),
    particles_(true),
    vtkDir_(owner.mesh().time().globalPath()/"VTK"/owner.name()),
    surfaceSeries_(vtkDir_/(owner.name() + "_surfaces.series")),
    particleSeries_(vtkDir_/(owner.name() + "_particles.series"))
{
    vtkDir_.clean();
    readCoeffs(this->coeffDict());

    // Restart: keep the series entries up to the start time
    if (Pstream::master())
    {
        const scalar startTime = owner.mesh().time().value();
        try
        {
            surfaceSeries_ = superellipsoid::VtkSeries::restart
            (
                vtkDir_/(owner.name() + "_surfaces.series"), startTime
            );
            particleSeries_ = superellipsoid::VtkSeries::restart
            (
                vtkDir_/(owner.name() + "_particles.series"), startTime
            );
        }
        catch (const std::exception& err)
        {
            FatalErrorInFunction
                << "Cloud function " << modelName << " (superellipsoidVTK): "
                << err.what() << exit(FatalError);
        }
    }

    Info<< "    superellipsoidVTK: resolution (" << resolution_.nEta << ' '
        << resolution_.nOmega << "), format "
        << (format_ == superellipsoid::VtkFormat::binary ? "binary" : "ascii")
        << ", surfaces " << Switch(surfaces_)
        << ", particles " << Switch(particles_) << " -> "
        << owner.mesh().time().relativePath(vtkDir_) << endl;
}


template<class CloudType>
Foam::SuperellipsoidVTK<CloudType>::SuperellipsoidVTK
(
    const SuperellipsoidVTK<CloudType>& vtk
)
:
    CloudFunctionObject<CloudType>(vtk),
    resolution_(vtk.resolution_),
    format_(vtk.format_),
    surfaces_(vtk.surfaces_),
    particles_(vtk.particles_),
    vtkDir_(vtk.vtkDir_),
    surfaceSeries_(vtk.surfaceSeries_),
    particleSeries_(vtk.particleSeries_)
{}


// ************************************************************************* //

/*---------------------------------------------------------------------------*\
    superellipsoidFoam: SuperellipsoidParcel I/O. The three routes of the
    I/O contract (time-directory fields, processor transfer, referred
    collision copies) carry e0, e = (e1 e2 e3), omegaP, exactPosition and
    shapeId. Stream order: [base parcel] e0 (e1 e2 e3) (omegaPx omegaPy
    omegaPz) (exactPositionx exactPositiony exactPositionz) shapeId
\*---------------------------------------------------------------------------*/

#include "SuperellipsoidParcel.H"
#include "IOstreams.H"
#include "IOField.H"
#include "CollidingParcel.H"

#include <type_traits>

// * * * * * * * * * * * * * * * Local Functions * * * * * * * * * * * * * //

namespace Foam
{
namespace superellipsoidParcelIO
{
    //- Size of the cloud's shape table (SuperellipsoidCloud), or -1 for a
    //  base cloud (KinematicCloud::readFields) that has none
    template<class CloudType>
    auto nShapes(const CloudType& c, int) -> decltype(label(c.shapes().size()))
    {
        return c.shapes().size();
    }

    template<class CloudType>
    label nShapes(const CloudType&, long)
    {
        return -1;
    }

    //- The parcel type below CollidingParcel (its readFields without the
    //  collision records); a parcel type that is no CollidingParcel
    //  reads through its own
    template<class ParcelType>
    struct belowColliding
    {
        using type = void;
    };

    template<class ParcelType>
    struct belowColliding<CollidingParcel<ParcelType>>
    {
        using type = ParcelType;
    };

    //- CollidingParcel's fields f, angularMomentum and torque, not its
    //  collision records: OpenFOAM's own DEM collision model is not used
    //  with superellipsoids (the records are empty) and reconstructPar
    //  does not carry them, so a reconstructed case restarts
    template<class ParcelType, class CloudType>
    void readBaseFields(CloudType& c, std::true_type)
    {
        using Below = typename belowColliding<ParcelType>::type;
        Below::readFields(c);

        const bool valid = c.size();
        const IOField<vector> f(c.fieldIOobject("f", IOobject::MUST_READ), valid);
        c.checkFieldIOobject(c, f);
        const IOField<vector> angularMomentum
        (
            c.fieldIOobject("angularMomentum", IOobject::MUST_READ),
            valid
        );
        c.checkFieldIOobject(c, angularMomentum);
        const IOField<vector> torque
        (
            c.fieldIOobject("torque", IOobject::MUST_READ),
            valid
        );
        c.checkFieldIOobject(c, torque);

        label i = 0;
        for (auto& p : c)
        {
            p.f() = f[i];
            p.angularMomentum() = angularMomentum[i];
            p.torque() = torque[i];
            ++i;
        }
    }

    template<class ParcelType, class CloudType>
    void readBaseFields(CloudType& c, std::false_type)
    {
        ParcelType::readFields(c);
    }

    //- The superellipsoid fields of a restart, one value per parcel
    //  (exactPosition optional: nullptr)
    struct RestartFields
    {
        const IOField<scalar>& e0;
        const IOField<vector>& e;
        const IOField<vector>& omegaP;
        const IOField<vector>* exactPosition;
        const IOField<label>& shapeId;
    };

    //- FatalError unless the field io holds n values, one per parcel of c
    template<class CloudType>
    void checkRestartSize
    (
        const CloudType& c,
        const word& where,
        const regIOobject& io,
        const label n
    )
    {
        if (n != c.size())
        {
            FatalErrorInFunction
                << "Bad restart field " << io.objectPath().c_str() << where << ": "
                << n << " values for " << c.size() << " parcels (positions)"
                << " of cloud " << c.name()
                << ": truncated or corrupt file" << nl << exit(FatalError);
        }
    }

    //- FatalError unless the restart values of parcel i are valid: a unit
    //  quaternion within maxQuaternionError, finite spin and exact
    //  position, a shape id of the table (nShapes < 0: any id >= 0)
    template<class CloudType>
    void checkRestartParcel
    (
        const CloudType& c,
        const word& where,
        const RestartFields& f,
        const label i,
        const scalar maxQuaternionError,
        const label nShapes
    )
    {
        const scalar qq = sqr(f.e0[i]) + magSqr(f.e[i]);
        if (!std::isfinite(qq) || !(mag(std::sqrt(qq) - 1) <= maxQuaternionError))
        {
            FatalErrorInFunction
                << "Bad restart fields " << f.e0.objectPath().c_str() << " and "
                << f.e.objectPath().c_str() << where << ": parcel " << i
                << " has e0 " << f.e0[i] << ", e123 " << f.e[i] << ", |e| "
                << std::sqrt(qq) << " (must be a unit quaternion within "
                << maxQuaternionError << ")" << nl << exit(FatalError);
        }
        if (!std::isfinite(magSqr(f.omegaP[i])))
        {
            FatalErrorInFunction
                << "Bad restart field " << f.omegaP.objectPath().c_str() << where
                << ": parcel " << i << " has omegaP " << f.omegaP[i]
                << " (not finite)" << nl << exit(FatalError);
        }
        if (f.exactPosition && !std::isfinite(magSqr((*f.exactPosition)[i])))
        {
            FatalErrorInFunction
                << "Bad restart field " << f.exactPosition->objectPath().c_str()
                << where << ": parcel " << i << " has exactPosition "
                << (*f.exactPosition)[i] << " (not finite)" << nl
                << exit(FatalError);
        }
        if (f.shapeId[i] < 0 || (nShapes >= 0 && f.shapeId[i] >= nShapes))
        {
            FatalErrorInFunction
                << "Bad restart field " << f.shapeId.objectPath().c_str() << where
                << ": parcel " << i << " has shapeId " << f.shapeId[i];
            if (nShapes >= 0)
            {
                FatalError
                    << " but the shape table of " << c.name() << " has "
                    << nShapes << " shapes (ids 0 to " << nShapes - 1 << ")";
            }
            else
            {
                FatalError << " (must be >= 0)";
            }
            FatalError << nl << exit(FatalError);
        }
    }
}
}


// * * * * * * * * * * * * * * Static Data Members * * * * * * * * * * * * * //

template<class ParcelType>
Foam::string Foam::SuperellipsoidParcel<ParcelType>::propertyList_ =
    Foam::SuperellipsoidParcel<ParcelType>::propertyList();

template<class ParcelType>
const std::size_t Foam::SuperellipsoidParcel<ParcelType>::sizeofFields
(
    offsetof(SuperellipsoidParcel<ParcelType>, shapeId_) + sizeof(label)
  - offsetof(SuperellipsoidParcel<ParcelType>, e0_)
);


// * * * * * * * * * * * * * * * * Constructors  * * * * * * * * * * * * * * //

template<class ParcelType>
Foam::SuperellipsoidParcel<ParcelType>::SuperellipsoidParcel
(
    const polyMesh& mesh,
    Istream& is,
    bool readFields,
    bool newFormat
)
:
    ParcelType(mesh, is, readFields, newFormat),
    e0_(1),
    e_(Zero),
    omegaP_(Zero),
    exactPosition_(Zero),   // read below, or by readFields (setFields)
    shapeId_(0)
{
    if (readFields)
    {
        if (is.format() == IOstream::ASCII)
        {
            is >> e0_ >> e_ >> omegaP_ >> exactPosition_ >> shapeId_;
        }
        else if (!is.checkLabelSize<>() || !is.checkScalarSize<>())
        {
            // Non-native label or scalar size
            is.beginRawRead();

            readRawScalar(is, &e0_, 1);
            readRawScalar(is, e_.data(), vector::nComponents);
            readRawScalar(is, omegaP_.data(), vector::nComponents);
            readRawScalar(is, exactPosition_.data(), vector::nComponents);
            readRawLabel(is, &shapeId_, 1);

            is.endRawRead();
        }
        else
        {
            is.read(reinterpret_cast<char*>(&e0_), sizeofFields);
        }
    }

    is.check(FUNCTION_NAME);
}


template<class ParcelType>
template<class CloudType>
void Foam::SuperellipsoidParcel<ParcelType>::setFields
(
    CloudType& c,
    const IOField<scalar>& e0,
    const IOField<vector>& e,
    const IOField<vector>& omegaP,
    const IOField<vector>* exactPosition,
    const IOField<label>& shapeId,
    const label nShapes
)
{
    // Everything is checked before a parcel is touched: a corrupt restart
    // is refused (FatalError naming the field file and the time), never
    // zero-filled, truncated or clamped
    using namespace superellipsoidParcelIO;
    const word where(" (time " + c.time().timeName() + ")");
    checkRestartSize(c, where, e0, e0.size());
    checkRestartSize(c, where, e, e.size());
    checkRestartSize(c, where, omegaP, omegaP.size());
    checkRestartSize(c, where, shapeId, shapeId.size());
    if (exactPosition)
    {
        checkRestartSize(c, where, *exactPosition, exactPosition->size());
    }
    const RestartFields fields{e0, e, omegaP, exactPosition, shapeId};
    for (label i = 0; i < c.size(); ++i)
    {
        checkRestartParcel
        (
            c, where, fields, i, maxRestartQuaternionError, nShapes
        );
    }

    label i = 0;
    for (SuperellipsoidParcel<ParcelType>& p : c)
    {
        p.e0_ = e0[i];
        p.e_ = e[i];
        p.omegaP_ = omegaP[i];
        // Without the field (a case written before it, or by hand) the
        // tracked position; it only has to agree with position()
        p.exactPosition_ = exactPosition ? (*exactPosition)[i] : p.position();
        p.shapeId_ = shapeId[i];
        ++i;
    }
}


template<class ParcelType>
template<class CloudType>
void Foam::SuperellipsoidParcel<ParcelType>::readFields(CloudType& c)
{
    const bool valid = c.size();

    superellipsoidParcelIO::readBaseFields<ParcelType>
    (
        c,
        std::integral_constant
        <
            bool,
            !std::is_void
            <
                typename superellipsoidParcelIO::belowColliding<ParcelType>::type
            >::value
        >()
    );

    const IOField<scalar> e0(c.fieldIOobject("e0", IOobject::MUST_READ), valid);
    const IOField<vector> e(c.fieldIOobject("e123", IOobject::MUST_READ), valid);
    const IOField<vector> omegaP
    (
        c.fieldIOobject("omegaP", IOobject::MUST_READ),
        valid
    );
    const IOField<label> shapeId
    (
        c.fieldIOobject("shapeId", IOobject::MUST_READ),
        valid
    );
    // Optional: a case written without it (or by hand) restarts from the
    // tracked positions
    IOobject exactIO(c.fieldIOobject("exactPosition", IOobject::READ_IF_PRESENT));
    const bool haveExact = valid && exactIO.typeHeaderOk<IOField<vector>>(true);
    const IOField<vector> exactPosition(exactIO, haveExact);

    setFields
    (
        c, e0, e, omegaP, haveExact ? &exactPosition : nullptr, shapeId,
        superellipsoidParcelIO::nShapes(c, 0)
    );
}


template<class ParcelType>
template<class CloudType>
void Foam::SuperellipsoidParcel<ParcelType>::writeFields(const CloudType& c)
{
    ParcelType::writeFields(c);

    const label np = c.size();
    const bool valid = np;

    IOField<scalar> e0(c.fieldIOobject("e0", IOobject::NO_READ), np);
    IOField<vector> e(c.fieldIOobject("e123", IOobject::NO_READ), np);
    IOField<vector> omegaP(c.fieldIOobject("omegaP", IOobject::NO_READ), np);
    IOField<vector> exactPosition
    (
        c.fieldIOobject("exactPosition", IOobject::NO_READ),
        np
    );
    IOField<label> shapeId(c.fieldIOobject("shapeId", IOobject::NO_READ), np);

    label i = 0;
    for (const SuperellipsoidParcel<ParcelType>& p : c)
    {
        e0[i] = p.e0_;
        e[i] = p.e_;
        omegaP[i] = p.omegaP_;
        exactPosition[i] = p.exactPosition_;
        shapeId[i] = p.shapeId_;
        ++i;
    }

    e0.write(valid);
    e.write(valid);
    omegaP.write(valid);
    exactPosition.write(valid);
    shapeId.write(valid);
}


template<class ParcelType>
void Foam::SuperellipsoidParcel<ParcelType>::writeProperties
(
    Ostream& os,
    const wordRes& filters,
    const word& delim,
    const bool namesOnly
) const
{
    ParcelType::writeProperties(os, filters, delim, namesOnly);

    #undef  writeProp
    #define writeProp(Name, Value)                                            \
        ParcelType::writeProperty(os, Name, Value, namesOnly, delim, filters)

    writeProp("e0", e0_);
    writeProp("e123", e_);
    writeProp("omegaP", omegaP_);
    writeProp("exactPosition", exactPosition_);
    writeProp("shapeId", shapeId_);

    #undef writeProp
}


template<class ParcelType>
template<class CloudType>
void Foam::SuperellipsoidParcel<ParcelType>::readObjects
(
    CloudType& c,
    const objectRegistry& obr
)
{
    ParcelType::readObjects(c, obr);

    if (!c.size()) return;

    setFields
    (
        c,
        cloud::lookupIOField<scalar>("e0", obr),
        cloud::lookupIOField<vector>("e123", obr),
        cloud::lookupIOField<vector>("omegaP", obr),
        obr.findObject<IOField<vector>>("exactPosition"),
        cloud::lookupIOField<label>("shapeId", obr),
        -1
    );
}


template<class ParcelType>
template<class CloudType>
void Foam::SuperellipsoidParcel<ParcelType>::writeObjects
(
    const CloudType& c,
    objectRegistry& obr
)
{
    ParcelType::writeObjects(c, obr);

    const label np = c.size();

    auto& e0 = cloud::createIOField<scalar>("e0", np, obr);
    auto& e = cloud::createIOField<vector>("e123", np, obr);
    auto& omegaP = cloud::createIOField<vector>("omegaP", np, obr);
    auto& exactPosition =
        cloud::createIOField<vector>("exactPosition", np, obr);
    auto& shapeId = cloud::createIOField<label>("shapeId", np, obr);

    label i = 0;
    for (const SuperellipsoidParcel<ParcelType>& p : c)
    {
        e0[i] = p.e0_;
        e[i] = p.e_;
        omegaP[i] = p.omegaP_;
        exactPosition[i] = p.exactPosition_;
        shapeId[i] = p.shapeId_;
        ++i;
    }
}


// * * * * * * * * * * * * * * * IOstream Operators  * * * * * * * * * * * * //

template<class ParcelType>
Foam::Ostream& Foam::operator<<
(
    Ostream& os,
    const SuperellipsoidParcel<ParcelType>& p
)
{
    if (os.format() == IOstream::ASCII)
    {
        os  << static_cast<const ParcelType&>(p)
            << token::SPACE << p.e0_
            << token::SPACE << p.e_
            << token::SPACE << p.omegaP_
            << token::SPACE << p.exactPosition_
            << token::SPACE << p.shapeId_;
    }
    else
    {
        os  << static_cast<const ParcelType&>(p);
        os.write
        (
            reinterpret_cast<const char*>(&p.e0_),
            SuperellipsoidParcel<ParcelType>::sizeofFields
        );
    }

    os.check(FUNCTION_NAME);
    return os;
}


// ************************************************************************* //

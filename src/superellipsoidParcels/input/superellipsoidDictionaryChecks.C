/*---------------------------------------------------------------------------*\
    superellipsoidFoam: validated dictionary reading (see the header).
\*---------------------------------------------------------------------------*/

#include "superellipsoidDictionaryChecks.H"

#include "error.H"
#include "OStringStream.H"
#include "ITstream.H"

#include <cmath>

// * * * * * * * * * * * * * * * Local Functions * * * * * * * * * * * * * * //

namespace
{

using namespace Foam;

//- The entry of key (literal, this dictionary only); FatalIOError if missing
//  or a sub-dictionary
const entry& findPrimitive(const dictionary& dict, const word& key)
{
    const entry* ePtr = dict.findEntry(key, keyType::LITERAL);
    if (!ePtr)
    {
        FatalIOErrorInFunction(dict)
            << "Missing entry " << key << " in " << dict.name() << nl
            << exit(FatalIOError);
    }
    if (ePtr->isDict())
    {
        FatalIOErrorInFunction(dict)
            << "Bad entry " << key << ": a sub-dictionary where a value is"
            << " expected" << nl << exit(FatalIOError);
    }
    return *ePtr;
}


} // End anonymous namespace


// * * * * * * * * * * * * * * * * Functions  * * * * * * * * * * * * * * * //

Foam::string Foam::superellipsoidDictionaryChecks::entryText
(
    const dictionary& dict,
    const word& key
)
{
    const entry* ePtr = dict.findEntry(key, keyType::LITERAL);
    if (!ePtr)
    {
        return "(missing)";
    }
    if (ePtr->isDict())
    {
        return "{ ... }";
    }
    // 15 digits: the value as the user wrote it (0.7, not the 17-digit
    // 0.69999999999999996 of a writePrecision-17 case)
    OStringStream os;
    os.precision(15);
    const ITstream& is = ePtr->stream();
    forAll(is, i)
    {
        if (i) os << ' ';
        os << is[i];
    }
    return os.str();
}


//- The numbers of a primitive entry: one number, or a parenthesised list
//  of numbers; FatalIOError naming the entry otherwise
Foam::List<Foam::scalar> Foam::superellipsoidDictionaryChecks::readNumbers
(
    const dictionary& dict,
    const word& key,
    const label nExpected,
    const char* what
)
{
    const entry& e = findPrimitive(dict, key);
    ITstream& is = e.stream();
    is.rewind();

    List<scalar> values;
    bool ok = true;
    if (nExpected == 1)
    {
        ok = is.size() == 1 && is[0].isNumber();
        if (ok)
        {
            values.append(is[0].number());
        }
    }
    else
    {
        ok = is.size() == nExpected + 2
          && is[0].isPunctuation() && is[0].pToken() == token::BEGIN_LIST
          && is[is.size() - 1].isPunctuation()
          && is[is.size() - 1].pToken() == token::END_LIST;
        for (label i = 1; ok && i + 1 < is.size(); ++i)
        {
            ok = is[i].isNumber();
            if (ok)
            {
                values.append(is[i].number());
            }
        }
    }

    if (!ok)
    {
        FatalIOErrorInFunction(dict)
            << "Bad entry " << key << ' ' << entryText(dict, key).c_str()
            << ": expected " << what << nl << exit(FatalIOError);
    }
    for (const scalar v : values)
    {
        if (!std::isfinite(v))
        {
            FatalIOErrorInFunction(dict)
                << "Bad entry " << key << ' ' << entryText(dict, key).c_str()
                << ": not finite" << nl << exit(FatalIOError);
        }
    }
    return values;
}


Foam::scalar Foam::superellipsoidDictionaryChecks::readScalar
(
    const dictionary& dict,
    const word& key
)
{
    return readNumbers(dict, key, 1, "a number")[0];
}


Foam::scalar Foam::superellipsoidDictionaryChecks::readScalarOrDefault
(
    const dictionary& dict,
    const word& key,
    const scalar def
)
{
    return dict.found(key, keyType::LITERAL) ? readScalar(dict, key) : def;
}


Foam::scalar Foam::superellipsoidDictionaryChecks::readBounded
(
    const dictionary& dict,
    const word& key,
    const scalar lo,
    const scalar hi
)
{
    const scalar value = readScalar(dict, key);
    if (!(value >= lo && value <= hi))
    {
        FatalIOErrorInFunction(dict)
            << "Bad entry " << key << ' ' << entryText(dict, key).c_str()
            << ": must lie in [" << lo << ", " << hi << "]" << nl
            << exit(FatalIOError);
    }
    return value;
}


Foam::scalar Foam::superellipsoidDictionaryChecks::readPositive
(
    const dictionary& dict,
    const word& key
)
{
    const scalar value = readScalar(dict, key);
    if (!(value > 0))
    {
        FatalIOErrorInFunction(dict)
            << "Bad entry " << key << ' ' << entryText(dict, key).c_str()
            << ": must be positive"
            << nl << exit(FatalIOError);
    }
    return value;
}


Foam::label Foam::superellipsoidDictionaryChecks::readLabel
(
    const dictionary& dict,
    const word& key
)
{
    const entry& e = findPrimitive(dict, key);
    ITstream& is = e.stream();
    if (!(is.size() == 1 && is[0].isLabel()))
    {
        FatalIOErrorInFunction(dict)
            << "Bad entry " << key << ' ' << entryText(dict, key).c_str()
            << ": expected an integer" << nl << exit(FatalIOError);
    }
    return is[0].labelToken();
}


Foam::label Foam::superellipsoidDictionaryChecks::readLabelOrDefault
(
    const dictionary& dict,
    const word& key,
    const label def
)
{
    return dict.found(key, keyType::LITERAL) ? readLabel(dict, key) : def;
}


Foam::vector Foam::superellipsoidDictionaryChecks::readVector
(
    const dictionary& dict,
    const word& key
)
{
    const List<scalar> v = readNumbers(dict, key, 3, "a vector (x y z)");
    return vector(v[0], v[1], v[2]);
}


Foam::vector Foam::superellipsoidDictionaryChecks::readVectorOrDefault
(
    const dictionary& dict,
    const word& key,
    const vector& def
)
{
    return dict.found(key, keyType::LITERAL) ? readVector(dict, key) : def;
}


void Foam::superellipsoidDictionaryChecks::checkKeywords
(
    const dictionary& dict,
    std::initializer_list<const char*> allowed,
    const string& context
)
{
    for (const entry& e : dict)
    {
        bool known = false;
        for (const char* name : allowed)
        {
            if (e.keyword() == name)
            {
                known = true;
                break;
            }
        }
        if (!known)
        {
            FatalIOErrorInFunction(dict)
                << "Unknown entry " << e.keyword() << ' '
                << entryText(dict, e.keyword()).c_str();
            if (!context.empty())
            {
                FatalIOError << " (" << context.c_str() << ")";
            }
            FatalIOError << ": expected one of";
            for (const char* name : allowed)
            {
                FatalIOError << ' ' << name;
            }
            FatalIOError << nl << exit(FatalIOError);
        }
    }
}


void Foam::superellipsoidDictionaryChecks::rejectIfFound
(
    const dictionary& dict,
    const word& key,
    const string& reason
)
{
    if (dict.found(key, keyType::LITERAL))
    {
        FatalIOErrorInFunction(dict)
            << "Bad entry " << key << ' ' << entryText(dict, key).c_str() << ": "
            << reason.c_str() << nl << exit(FatalIOError);
    }
}


void Foam::superellipsoidDictionaryChecks::rejectTogether
(
    const dictionary& dict,
    const word& keyA,
    const word& keyB,
    const string& reason
)
{
    if (dict.found(keyA, keyType::LITERAL) && dict.found(keyB, keyType::LITERAL))
    {
        FatalIOErrorInFunction(dict)
            << "Bad entries " << keyA << ' ' << entryText(dict, keyA).c_str()
            << " and " << keyB << ' ' << entryText(dict, keyB).c_str() << ": "
            << reason.c_str() << nl << exit(FatalIOError);
    }
}


// ************************************************************************* //

/*---------------------------------------------------------------------------*\
    superellipsoidFoam: validated dictionary reading (see the header).
\*---------------------------------------------------------------------------*/

#include "superellipsoidDictionaryChecks.H"

#include "error.H"
#include "OStringStream.H"
#include "ITstream.H"
#include "Switch.H"

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


//- The values of a primitive entry: one token (n = 1) or a parenthesised
//  list of n tokens, each accepted by get(token, value); FatalIOError
//  naming the entry and what was expected otherwise
template<class Type, class Get>
List<Type> readValues
(
    const dictionary& dict,
    const word& key,
    const label nExpected,
    const char* what,
    const Get& get
)
{
    const entry& e = findPrimitive(dict, key);
    ITstream& is = e.stream();
    is.rewind();

    List<Type> values;
    bool ok = true;
    Type value = Type();
    if (nExpected == 1)
    {
        ok = is.size() == 1 && get(is[0], value);
        if (ok)
        {
            values.append(value);
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
            ok = get(is[i], value);
            if (ok)
            {
                values.append(value);
            }
        }
    }

    if (!ok)
    {
        FatalIOErrorInFunction(dict)
            << "Bad entry " << key << ' '
            << superellipsoidDictionaryChecks::entryText(dict, key).c_str()
            << ": expected " << what << nl << exit(FatalIOError);
    }
    return values;
}


//- A number token as a scalar
bool fromToken(const token& t, scalar& v)
{
    if (t.isNumber())
    {
        v = t.number();
    }
    return t.isNumber();
}


//- An integer token as a label
bool fromToken(const token& t, label& v)
{
    if (t.isLabel())
    {
        v = t.labelToken();
    }
    return t.isLabel();
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


template<class Type>
Foam::List<Type> Foam::superellipsoidDictionaryChecks::readList
(
    const dictionary& dict,
    const word& key,
    const label nExpected,
    const char* what
)
{
    const List<Type> values = readValues<Type>
    (
        dict, key, nExpected, what,
        [](const token& t, Type& v) { return fromToken(t, v); }
    );
    for (const Type v : values)
    {
        if (!std::isfinite(double(v)))
        {
            FatalIOErrorInFunction(dict)
                << "Bad entry " << key << ' ' << entryText(dict, key).c_str()
                << ": not finite" << nl << exit(FatalIOError);
        }
    }
    return values;
}


template Foam::List<Foam::scalar> Foam::superellipsoidDictionaryChecks::readList<Foam::scalar>
(
    const dictionary&, const word&, const label, const char*
);
template Foam::List<Foam::label> Foam::superellipsoidDictionaryChecks::readList<Foam::label>
(
    const dictionary&, const word&, const label, const char*
);


template<>
Foam::scalar Foam::superellipsoidDictionaryChecks::read<Foam::scalar>
(
    const dictionary& dict,
    const word& key
)
{
    return readList<scalar>(dict, key, 1, "a number")[0];
}


template<>
Foam::label Foam::superellipsoidDictionaryChecks::read<Foam::label>
(
    const dictionary& dict,
    const word& key
)
{
    return readList<label>(dict, key, 1, "an integer")[0];
}


template<>
Foam::vector Foam::superellipsoidDictionaryChecks::read<Foam::vector>
(
    const dictionary& dict,
    const word& key
)
{
    const List<scalar> v = readList<scalar>(dict, key, 3, "a vector (x y z)");
    return vector(v[0], v[1], v[2]);
}


Foam::scalar Foam::superellipsoidDictionaryChecks::readBounded
(
    const dictionary& dict,
    const word& key,
    const scalar lo,
    const scalar hi
)
{
    const scalar value = read<scalar>(dict, key);
    checkRange(dict, key, value, lo, hi);
    return value;
}


Foam::scalar Foam::superellipsoidDictionaryChecks::readPositive
(
    const dictionary& dict,
    const word& key
)
{
    const scalar value = read<scalar>(dict, key);
    if (!(value > 0))
    {
        FatalIOErrorInFunction(dict)
            << "Bad entry " << key << ' ' << entryText(dict, key).c_str()
            << ": must be positive"
            << nl << exit(FatalIOError);
    }
    return value;
}


bool Foam::superellipsoidDictionaryChecks::readSwitchOrDefault
(
    const dictionary& dict,
    const word& key,
    const bool def
)
{
    if (!dict.found(key, keyType::LITERAL))
    {
        return def;
    }
    // As Switch's own reader: an integer, or a word naming a valid Switch
    return readValues<bool>
    (
        dict, key, 1, "a switch (yes or no)",
        [](const token& t, bool& v)
        {
            if (t.isLabel())
            {
                v = bool(t.labelToken());
                return true;
            }
            if (t.isWord())
            {
                const Switch sw(t.wordToken(), true);
                v = bool(sw);
                return sw.valid();
            }
            return false;
        }
    )[0];
}


template<class Type>
void Foam::superellipsoidDictionaryChecks::checkRange
(
    const dictionary& dict,
    const word& key,
    const Type value,
    const Type lo,
    const Type hi,
    const string& note
)
{
    const bool noUpperBound = (hi == pTraits<Type>::max);
    if (!(value >= lo && (noUpperBound || value <= hi)))
    {
        FatalIOErrorInFunction(dict)
            << "Bad entry " << key << ' ' << entryText(dict, key).c_str();
        if (noUpperBound)
        {
            FatalIOError << ": must be >= " << lo;
        }
        else
        {
            FatalIOError << ": must lie in [" << lo << ", " << hi << "]";
        }
        if (!note.empty())
        {
            FatalIOError << " (" << note.c_str() << ")";
        }
        FatalIOError << nl << exit(FatalIOError);
    }
}


template void Foam::superellipsoidDictionaryChecks::checkRange<Foam::scalar>
(
    const dictionary&, const word&, const scalar, const scalar, const scalar,
    const string&
);
template void Foam::superellipsoidDictionaryChecks::checkRange<Foam::label>
(
    const dictionary&, const word&, const label, const label, const label,
    const string&
);


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

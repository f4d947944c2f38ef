#include "output/VtkSeries.H"
#include "output/AtomicFile.H"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <ostream>
#include <sstream>
#include <stdexcept>

namespace superellipsoid
{

namespace
{

//- Minimal JSON reader for the series format: objects, arrays, strings
//  (with escapes), numbers, true/false/null; unknown keys are skipped
class JsonReader
{
public:
    JsonReader(const std::string& text, const std::string& origin) : s_(text), origin_(origin) {}

    std::vector<SeriesEntry> series()
    {
        std::vector<SeriesEntry> entries;
        bool haveFiles = false;
        expect('{');
        if (!tryConsume('}'))
        {
            do
            {
                const std::string key = string();
                expect(':');
                if (key == "files")
                {
                    haveFiles = true;
                    files(entries);
                }
                else
                {
                    skipValue();
                }
            } while (tryConsume(','));
            expect('}');
        }
        skipSpace();
        if (pos_ != s_.size()) fail("trailing characters");
        if (!haveFiles) fail("no \"files\" entry");
        return entries;
    }

private:
    const std::string& s_;
    const std::string& origin_;
    std::size_t pos_ = 0;

    [[noreturn]] void fail(const std::string& what) const
    {
        throw std::runtime_error
        (
            "VTK series " + origin_ + ": " + what + " at character " + std::to_string(pos_)
        );
    }

    void skipSpace()
    {
        while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
    }

    bool tryConsume(char c)
    {
        skipSpace();
        if (pos_ < s_.size() && s_[pos_] == c) { ++pos_; return true; }
        return false;
    }

    void expect(char c)
    {
        if (!tryConsume(c)) fail(std::string("expected '") + c + "'");
    }

    std::string string()
    {
        expect('"');
        std::string out;
        while (pos_ < s_.size() && s_[pos_] != '"')
        {
            char c = s_[pos_++];
            if (c == '\\')
            {
                if (pos_ >= s_.size()) break;
                const char e = s_[pos_++];
                switch (e)
                {
                    case '"': case '\\': case '/': c = e; break;
                    case 'b': c = '\b'; break;
                    case 'f': c = '\f'; break;
                    case 'n': c = '\n'; break;
                    case 'r': c = '\r'; break;
                    case 't': c = '\t'; break;
                    case 'u':
                    {
                        // Only the ASCII range (our names are file names)
                        if (pos_ + 4 > s_.size()) fail("truncated \\u escape");
                        const long code = std::strtol(s_.substr(pos_, 4).c_str(), nullptr, 16);
                        if (code <= 0 || code > 127) fail("non-ASCII \\u escape");
                        c = char(code);
                        pos_ += 4;
                        break;
                    }
                    default: fail(std::string("bad escape \\") + e);
                }
            }
            out += c;
        }
        if (pos_ >= s_.size()) fail("unterminated string");
        ++pos_;
        return out;
    }

    double number()
    {
        skipSpace();
        const char* begin = s_.c_str() + pos_;
        char* end = nullptr;
        const double value = std::strtod(begin, &end);
        if (end == begin) fail("expected a number");
        pos_ += std::size_t(end - begin);
        if (!std::isfinite(value)) fail("non-finite number");
        return value;
    }

    void skipValue()
    {
        skipSpace();
        if (pos_ >= s_.size()) fail("unexpected end");
        const char c = s_[pos_];
        if (c == '"') { string(); return; }
        if (c == '{' || c == '[')
        {
            const char close = c == '{' ? '}' : ']';
            ++pos_;
            if (tryConsume(close)) return;
            do
            {
                if (c == '{') { string(); expect(':'); }
                skipValue();
            } while (tryConsume(','));
            expect(close);
            return;
        }
        for (const char* word : {"true", "false", "null"})
        {
            const std::string w(word);
            if (s_.compare(pos_, w.size(), w) == 0) { pos_ += w.size(); return; }
        }
        number();
    }

    void files(std::vector<SeriesEntry>& entries)
    {
        expect('[');
        if (tryConsume(']')) return;
        do
        {
            expect('{');
            SeriesEntry e;
            bool haveName = false, haveTime = false;
            if (!tryConsume('}'))
            {
                do
                {
                    const std::string key = string();
                    expect(':');
                    if (key == "name") { e.name = string(); haveName = true; }
                    else if (key == "time") { e.time = number(); haveTime = true; }
                    else skipValue();
                } while (tryConsume(','));
                expect('}');
            }
            if (!haveName || !haveTime) fail("file entry without \"name\" or \"time\"");
            entries.push_back(e);
        } while (tryConsume(','));
        expect(']');
    }
};

std::string escaped(const std::string& name)
{
    std::string out;
    for (const char c : name)
    {
        if (c == '"' || c == '\\') { out += '\\'; out += c; }
        else if (static_cast<unsigned char>(c) < 0x20)
        {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", unsigned(c));
            out += buf;
        }
        else out += c;
    }
    return out;
}

bool fileExists(const std::string& file)
{
    return bool(std::ifstream(file));
}

} // namespace


VtkSeries::VtkSeries(std::string file)
:
    file_(std::move(file))
{}


VtkSeries VtkSeries::restart(std::string file, double startTime)
{
    VtkSeries series(std::move(file));
    if (fileExists(series.file_))
    {
        series.entries_ = read(series.file_);
        if (series.dropFrom(startTime, true) > 0) series.write();
    }
    return series;
}


std::size_t VtkSeries::dropFrom(double t, bool keepEqual)
{
    const double tol = timeTolerance*std::max(std::abs(t), std::numeric_limits<double>::min());
    const std::size_t before = entries_.size();
    entries_.erase
    (
        std::remove_if
        (
            entries_.begin(), entries_.end(),
            [&](const SeriesEntry& e) { return keepEqual ? e.time > t + tol : e.time >= t - tol; }
        ),
        entries_.end()
    );
    return before - entries_.size();
}


void VtkSeries::add(const std::string& name, double time)
{
    if (!std::isfinite(time))
    {
        throw std::invalid_argument("VTK series " + file_ + ": non-finite time for '" + name + "'");
    }
    if (name.empty())
    {
        throw std::invalid_argument("VTK series " + file_ + ": empty file name");
    }
    dropFrom(time, false);
    entries_.push_back({name, time});
    write();
}


std::string VtkSeries::format(const std::vector<SeriesEntry>& entries)
{
    std::ostringstream os;
    os.precision(std::numeric_limits<double>::max_digits10);
    os << "{\n  \"file-series-version\" : \"1.0\",\n  \"files\" : [\n";
    for (std::size_t i = 0; i < entries.size(); ++i)
    {
        os << "    { \"name\" : \"" << escaped(entries[i].name) << "\", \"time\" : " << entries[i].time
           << " }" << (i + 1 < entries.size() ? "," : "") << "\n";
    }
    os << "  ]\n}\n";
    return os.str();
}


void VtkSeries::write() const
{
    const std::string text = format(entries_);
    writeFileAtomically(file_, [&text](std::ostream& os) { os << text; });
}


std::vector<SeriesEntry> VtkSeries::parse(const std::string& text, const std::string& origin)
{
    return JsonReader(text, origin).series();
}


std::vector<SeriesEntry> VtkSeries::read(const std::string& file)
{
    std::ifstream is(file);
    if (!is) throw std::runtime_error("VTK series: cannot read file '" + file + "'");
    std::ostringstream text;
    text << is.rdbuf();
    return parse(text.str(), "file '" + file + "'");
}

} // namespace superellipsoid

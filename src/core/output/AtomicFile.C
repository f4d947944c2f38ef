#include "output/AtomicFile.H"

#include <cstdio>
#include <fstream>
#include <stdexcept>

namespace superellipsoid
{

void writeFileAtomically(const std::string& file, const std::function<void(std::ostream&)>& write)
{
    const std::string tmp = file + ".tmp";
    auto fail = [&](const std::string& what)
    {
        std::remove(tmp.c_str());
        throw std::runtime_error("cannot " + what + " file '" + file + "'");
    };
    {
        std::ofstream os(tmp);
        if (!os) fail("open (as '" + tmp + "')");
        try
        {
            write(os);
        }
        catch (...)
        {
            os.close();
            std::remove(tmp.c_str());
            throw;
        }
        os.close();
        if (!os) fail("write");
    }
    if (std::rename(tmp.c_str(), file.c_str()) != 0) fail("rename '" + tmp + "' to");
}

} // namespace superellipsoid

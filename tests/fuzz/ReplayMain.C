// Replay driver: runs a fuzz target's LLVMFuzzerTestOneInput on files and
// directories of inputs, without libFuzzer (any compiler). Used by ctest as
// the regression test of the committed corpus (tests/fuzz/corpus/<target>/).
//
//   fuzzReplay_<target> <file or directory>...
//
// Exit status 0 when every input ran (a failed check aborts the process, so
// the last "replaying" line names the input); 1 when a path is unreadable
// or no input was found.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace
{

bool runFile(const std::filesystem::path& file)
{
    std::ifstream is(file, std::ios::binary);
    if (!is)
    {
        std::fprintf(stderr, "fuzzReplay: cannot read %s\n", file.c_str());
        return false;
    }
    const std::vector<char> bytes((std::istreambuf_iterator<char>(is)), std::istreambuf_iterator<char>());
    std::fprintf(stderr, "replaying %s (%zu bytes)\n", file.c_str(), bytes.size());
    std::vector<std::uint8_t> data(bytes.begin(), bytes.end());
    LLVMFuzzerTestOneInput(data.data(), data.size());
    return true;
}

} // namespace


int main(int argc, char** argv)
{
    namespace fs = std::filesystem;
    long count = 0;
    bool ok = true;
    for (int i = 1; i < argc; ++i)
    {
        const fs::path path(argv[i]);
        std::vector<fs::path> files;
        if (fs::is_directory(path))
        {
            for (const fs::directory_entry& e : fs::directory_iterator(path))
            {
                if (e.is_regular_file() && e.path().filename().string()[0] != '.') files.push_back(e.path());
            }
            std::sort(files.begin(), files.end());
        }
        else if (fs::is_regular_file(path))
        {
            files.push_back(path);
        }
        else
        {
            std::fprintf(stderr, "fuzzReplay: %s is neither a file nor a directory\n", argv[i]);
            ok = false;
        }
        for (const fs::path& f : files)
        {
            ok = runFile(f) && ok;
            ++count;
        }
    }
    std::printf("fuzzReplay: %ld inputs replayed, none failed\n", count);
    return ok && count > 0 ? 0 : 1;
}

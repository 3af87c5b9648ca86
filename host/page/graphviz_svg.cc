// graphviz_svg.cc — `dot -Tsvg` over temporary files (no pipes to deadlock on with a
// big graph), the child's exit status told apart: not installed, or failed.
#include "page/graphviz_svg.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>

namespace mpidbg::page {
namespace {

bool WriteText(const std::string& path, const std::string& text) {
  std::ofstream out(path);
  out << text;
  return static_cast<bool>(out);
}

}  // namespace

host::Result<std::string> DotToSvg(const std::string& dot_text) {
  char dir[] = "/tmp/mpidbg-graph-XXXXXX";
  if (mkdtemp(dir) == nullptr) {
    return host::Status::Usage("cannot create a temporary folder for dot");
  }
  const std::string in = std::string(dir) + "/graph.dot";
  const std::string out = std::string(dir) + "/graph.svg";
  auto clean = [&]() {
    unlink(in.c_str());
    unlink(out.c_str());
    rmdir(dir);
  };
  if (!WriteText(in, dot_text)) {
    clean();
    return host::Status::Usage("cannot write a temporary file for dot");
  }
  std::fflush(nullptr);
  pid_t child = fork();
  if (child == 0) {
    execlp("dot", "dot", "-Tsvg", "-o", out.c_str(), in.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  int status = 0;
  if (child > 0) waitpid(child, &status, 0);
  if (child < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    clean();
    return host::Status::Usage(child > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 127
                                   ? "cannot run 'dot' (Graphviz is not installed?)"
                                   : "'dot -Tsvg' failed");
  }
  std::ifstream read(out);
  std::ostringstream svg;
  svg << read.rdbuf();
  clean();
  return svg.str();
}

}  // namespace mpidbg::page

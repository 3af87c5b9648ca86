// hydra_arguments.cc — see hydra_arguments.h.
#include "host/target/hydra_arguments.h"

namespace mpidbg::host {
namespace {

constexpr const char* kProxyName = "hydra_pmi_proxy";

std::string Unquoted(const std::string& word) {
  if (word.size() >= 2 && (word.front() == '"' || word.front() == '\'') &&
      word.back() == word.front()) {
    return word.substr(1, word.size() - 2);
  }
  return word;
}

}  // namespace

bool IsHydraProxyPath(const std::string& word) {
  const std::string path = Unquoted(word);
  const std::size_t slash = path.rfind('/');
  return path.compare(slash == std::string::npos ? 0 : slash + 1, std::string::npos,
                      kProxyName) == 0;
}

std::optional<HydraProxyOptions> ParseHydraProxyOptions(const std::vector<std::string>& argv,
                                                        std::size_t first) {
  HydraProxyOptions o;
  for (std::size_t k = first; k + 1 < argv.size(); ++k) {
    const std::string& option = argv[k];
    const std::string& value = argv[k + 1];
    if (option == "--control-port") o.control_port = value;
    if (option == "--pgid") o.pgid = value;
    if (option == "--launcher") o.launcher = value;
    if (option == "--proxy-id") {
      try {
        o.proxy_id = std::stoi(value);
      } catch (...) {
        o.proxy_id = -1;
      }
    }
  }
  if (o.control_port.empty()) return std::nullopt;
  return o;
}

std::optional<HydraProxyOptions> ParseHydraProxyCommandLine(const std::vector<std::string>& argv) {
  if (argv.empty() || !IsHydraProxyPath(argv[0])) return std::nullopt;
  return ParseHydraProxyOptions(argv, 1);
}

}  // namespace mpidbg::host

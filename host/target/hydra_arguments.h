// hydra_arguments.h — what the arguments of MPICH's Hydra proxy say: `hydra_pmi_proxy
// --control-port HOST:PORT ... --pgid G ... --proxy-id N`. mpiexec's control port is its
// own while it runs and the pgid numbers its process groups (spawned jobs), so the two
// name one job: "HOST:PORT/G", the job id the runtime's launch record gives every rank
// below such a proxy (mpidbg/rt/process/launch_env.cc). Read from the proxy's own
// command line on the node, and from the remote shell's that started it on the
// launcher's host (proctable/hydra_proxies.h).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace mpidbg::host {

struct HydraProxyOptions {
  std::string control_port;  // mpiexec's "HOST:PORT"
  std::string pgid = "0";
  int proxy_id = -1;         // -1 when not given
  std::string launcher;      // how mpiexec starts proxies: "ssh", "rsh", "slurm", ... ("": not given)
  // Whether that is a remote shell, one per host (mpiexec's child names the host).
  bool remote_shell() const { return launcher.empty() || launcher == "ssh" || launcher == "rsh"; }
  // "HOST:PORT/G"
  std::string job_id() const { return control_port + "/" + pgid; }
};

// Whether `word` is the proxy's path ("hydra_pmi_proxy" in any directory, quoted or not:
// mpiexec quotes it for the remote shell).
bool IsHydraProxyPath(const std::string& word);

// The proxy's options among argv[first...] (the words after its path). nullopt without
// a control port.
std::optional<HydraProxyOptions> ParseHydraProxyOptions(const std::vector<std::string>& argv,
                                                        std::size_t first);

// A process's own arguments when it is a proxy (its first word the proxy's path).
std::optional<HydraProxyOptions> ParseHydraProxyCommandLine(const std::vector<std::string>& argv);

}  // namespace mpidbg::host

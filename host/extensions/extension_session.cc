// extension_session.cc — setting one target up in its DLL for the extension readers.
#include "host/extensions/extension_session.h"

#include "host/plugin_host/plugin_choice.h"
#include "host/target/mpi_library.h"

namespace mpidbg::extensions {

std::string Bounded(const char* text, size_t size) { return std::string(text, strnlen(text, size)); }

bool ReadProcessSummary(ExtensionTarget& t, mpidbg_process_summary* out) {
  const host::ExtensionFunctions& e = t.dll.extensions();
  if (e.process_get_summary == nullptr) return false;
  *out = Sized<mpidbg_process_summary>();
  return e.process_get_summary(t.session.process(), out) == mqs_ok;
}

host::Status NoRankRead(const std::vector<host::Status>& failures) {
  host::ErrorKind kind = failures.empty() ? host::ErrorKind::kUnreadable : failures[0].kind();
  std::string why = failures.empty() ? "" : ": " + failures[0].message();
  return host::Status::Error(kind, "no rank of the job could be read" + why);
}

host::Status WithExtensionTarget(const host::TargetSpec& spec,
                           const std::function<host::Status(ExtensionTarget&)>& read) {
  auto opened = host::OpenedTarget::Open(spec);
  if (!opened.ok()) return opened.status();
  host::OpenedTarget& target = *opened.value();
  auto choice = host::ChoosePlugin(target.symbols(), target.memory(), spec.plugin, target.pid());
  if (!choice.ok()) {
    if (choice.status().kind() != host::ErrorKind::kNoSupport || !spec.plugin.empty()) {
      return choice.status();
    }
    // No DLL at all: no MPI process, or one whose MPI keeps no data of this kind.
    const std::string library = host::MpiLibraryModule(target);
    if (library.empty()) return host::NotMpiProcess(target);
    return host::Status::NoSupport("the process does not run the mpidbg runtime (it loads " +
                                   library +
                                   " without MPI debugging support): run the job under "
                                   "`mpidbg run --monitor` or `--profile`");
  }
  if (!choice->ours && spec.plugin.empty()) {
    return host::Status::NoSupport(
        "the process does not run the mpidbg runtime (its MPI library names " +
        choice->path + "): run the job under `mpidbg run --monitor` or `--profile`");
  }
  auto dll = host::MqDll::Load(choice->path);
  if (!dll.ok()) return dll.status();
  host::TargetContext ctx;
  ctx.memory = &target.memory();
  ctx.symbols = &target.symbols();
  std::string image = target.image_name().empty() ? "process " + std::to_string(target.pid())
                                                  : target.image_name();
  host::Status result;
  {
    auto session = host::MqSession::Start(dll.value().get(), &ctx, image);
    if (!session.ok()) return session.status();
    ExtensionTarget opened{*session.value(), *dll.value(), target, ctx};
    result = read(opened);
  }
  host::Status closed = target.Close();
  if (result.ok() && !closed.ok()) return closed;
  return result;
}

}  // namespace mpidbg::extensions

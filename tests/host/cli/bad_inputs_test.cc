// bad_inputs_test.cc — the `mpidbg` command on inputs it cannot use: each ends with the
// exit status of docs/OUTPUT.md and exactly one line on stderr ("mpidbg: " and one
// sentence), and with --json one error document on stdout carrying the same status.
//   truncated core, core of a program without MPI debugging support, wrong --exe,
//   a pid that does not exist, a process another tracer holds, another user's
//   process, a DLL without the needed interface, a --plugin that is not a DLL.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "child_target.h"
#include "core_fixture.h"
#include "test_child.h"

namespace mpidbg::test {
namespace {

// A temporary directory, removed with everything in it when it goes.
struct ScratchDir {
  std::string path = MakeTempDir();
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
};

struct Outcome {
  int exit_code = -1;
  std::string out;
  std::string err;
};

std::string Slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string Quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// Runs `prefix mpidbg args` (prefix: e.g. a setpriv invocation), bounded in time.
Outcome Run(const std::vector<std::string>& args, const std::string& prefix = "") {
  static const ScratchDir scratch;
  const std::string& dir = scratch.path;
  std::string cmd = "timeout -s KILL 120 " + prefix + " " + Quote(MPIDBG_EXE);
  for (const std::string& a : args) cmd += " " + Quote(a);
  cmd += " >" + dir + "/out 2>" + dir + "/err";
  int rc = std::system(cmd.c_str());
  Outcome o;
  o.exit_code = WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
  o.out = Slurp(dir + "/out");
  o.err = Slurp(dir + "/err");
  return o;
}

// The exit status, one stderr line holding `fragment`, and the same through --json.
void ExpectRefusal(const std::vector<std::string>& args, int status, const std::string& fragment,
                   const std::string& prefix = "") {
  Outcome o = Run(args, prefix);
  EXPECT_EQ(o.exit_code, status) << o.err;
  EXPECT_EQ(o.err.rfind("mpidbg: ", 0), 0u) << o.err;
  // `job` names each rank it could not read on a line of its own, then sums up.
  if (args[0] != "job") {
    EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << "one line: " << o.err;
  }
  EXPECT_NE(o.err.find(fragment), std::string::npos)
      << "expected \"" << fragment << "\" in " << o.err;
  EXPECT_TRUE(o.out.empty()) << o.out;
  std::vector<std::string> with_json = args;
  with_json.push_back("--json");
  Outcome j = Run(with_json, prefix);
  EXPECT_EQ(j.exit_code, status);
  nlohmann::json doc = nlohmann::json::parse(j.out, nullptr, false);
  ASSERT_TRUE(doc.is_object()) << j.out;
  EXPECT_EQ(doc["schema"], "mpidbg.error/1");
  EXPECT_EQ(doc["error"]["exit_status"], status);
  if (args[0] != "job") {
    EXPECT_NE(doc["error"]["message"].get<std::string>().find(fragment), std::string::npos);
    EXPECT_FALSE(doc["error"].contains("ranks")) << j.out;
  } else {
    // job's message sums up; each target's reason is in error.ranks, the first one's
    // kind is the exit status.
    const nlohmann::json& ranks = doc["error"]["ranks"];
    ASSERT_TRUE(ranks.is_array() && !ranks.empty()) << j.out;
    EXPECT_EQ(ranks[0]["error_kind"], status) << j.out;
    EXPECT_NE(ranks[0]["error"].get<std::string>().find(fragment), std::string::npos) << j.out;
  }
}

// `mpidbg args... --json`, parsed; fails the test unless it is one JSON object.
nlohmann::json RunJson(std::vector<std::string> args, int* exit_code) {
  args.push_back("--json");
  Outcome o = Run(args);
  *exit_code = o.exit_code;
  nlohmann::json doc = nlohmann::json::parse(o.out, nullptr, false);
  EXPECT_TRUE(doc.is_object()) << o.out << o.err;
  return doc.is_object() ? doc : nlohmann::json::object();
}

std::string SelfExe() {
  char buf[4096];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  return n > 0 ? std::string(buf, static_cast<size_t>(n)) : "";
}

// The suite keeps its name, which the CTest names of its tests carry.
using LiveChild = ChildTarget;

#define REQUIRE_CORE(path)                \
  const std::string& path = SharedCore(); \
  if (path.empty()) GTEST_SKIP() << "gcore could not make a core"

// --- cores -------------------------------------------------------------------------

TEST(BadCore, TruncatedCoreIs3) {
  REQUIRE_CORE(core);
  ScratchDir scratch;
  std::string cut = scratch.path + "/cut.core";
  {
    std::ifstream in(core, std::ios::binary);
    std::ofstream out(cut, std::ios::binary);
    out << in.rdbuf();
  }
  struct stat sb;
  ASSERT_EQ(stat(cut.c_str(), &sb), 0);
  ASSERT_EQ(truncate(cut.c_str(), sb.st_size / 2), 0);
  ExpectRefusal({"snapshot", "--core", cut}, 3, "is truncated");
  ExpectRefusal({"handle", "--core", cut, "--kind", "comm", "0x1"}, 3, "is truncated");
  // Cut inside the ELF header itself.
  ASSERT_EQ(truncate(cut.c_str(), 30), 0);
  ExpectRefusal({"snapshot", "--core", cut}, 3, "less than an ELF header");
}

TEST(BadCore, FileThatIsNoCoreIs3) {
  ExpectRefusal({"snapshot", "--core", SelfExe()}, 3, "is not a core file");
}

// A program that loads no MPI library is said to be no MPI process (a launcher, a
// shell); the handle command, which reads no stacks, looks for the DLL only.
TEST(BadCore, CoreOfAProgramWithoutMpiIs1) {
  REQUIRE_CORE(core);
  const std::string what =
      " is not an MPI process: it loads no MPI library (no MPI_Init or PMPI_Init) and has no "
      "MPI debugging support (no symbol mpidbg_runtime_root or MPIR_dll_name)";
  ExpectRefusal({"snapshot", "--core", core}, 1, what);
  ExpectRefusal({"job", "--cores", core}, 1, what);
  ExpectRefusal({"handle", "--core", core, "--kind", "comm", "0x44000000"}, 1,
                "has no MPI debugging support: looked for symbol mpidbg_runtime_root "
                "and MPIR_dll_name in ");
}

TEST(BadCore, JobOfUnreadableCoresSaysWhyForEach) {
  REQUIRE_CORE(core);
  const std::string self = SelfExe();
  int rc = -1;
  nlohmann::json doc = RunJson({"job", "--cores", core, self}, &rc);
  EXPECT_EQ(rc, 1);  // the first target's kind: no MPI debugging support
  EXPECT_EQ(doc["schema"], "mpidbg.error/1");
  EXPECT_EQ(doc["error"]["exit_status"], 1);
  EXPECT_EQ(doc["error"]["message"], "no rank of the job could be read");
  const nlohmann::json& ranks = doc["error"]["ranks"];
  ASSERT_EQ(ranks.size(), 2u) << doc.dump(1);
  EXPECT_EQ(ranks[0]["target"], "core " + core);
  EXPECT_EQ(ranks[0]["error_kind"], 1);
  EXPECT_NE(ranks[0]["error"].get<std::string>().find("has no MPI debugging support"),
            std::string::npos) << doc.dump(1);
  EXPECT_EQ(ranks[1]["target"], "core " + self);
  EXPECT_EQ(ranks[1]["error_kind"], 3);
  EXPECT_NE(ranks[1]["error"].get<std::string>().find("is not a core file"), std::string::npos)
      << doc.dump(1);
}

TEST(BadCore, WrongExeIs2) {
  REQUIRE_CORE(core);
  ExpectRefusal({"snapshot", "--core", core, "--exe", "/bin/true"}, 2,
                "--exe /bin/true is not the program core file " + core + " was dumped from");
  ExpectRefusal({"snapshot", "--core", core, "--exe", "/nonexistent/program"}, 2,
                "--exe /nonexistent/program cannot be used: No such file or directory");
  ExpectRefusal({"snapshot", "--core", core, "--exe", "/etc/hostname"}, 2, "not an ELF program");
  // The right program passes the check (and the core then lacks MPI support).
  ExpectRefusal({"snapshot", "--core", core, "--exe", SelfExe()}, 1, "no MPI debugging support");
}

// --- live processes ------------------------------------------------------------------

TEST(BadPid, NoSuchProcessIs3) {
  std::string gone = std::to_string(UnusedPid());
  ExpectRefusal({"snapshot", "--pid", gone}, 3, "no process " + gone);
  ExpectRefusal({"handle", "--pid", gone, "--kind", "comm", "0x1"}, 3, "no process " + gone);
  ExpectRefusal({"job", "--pids", gone}, 3, gone);
}

TEST(BadPid, JobOfMissingProcessesSaysWhyForEach) {
  const std::string gone = std::to_string(UnusedPid());
  const std::string also_gone = std::to_string(UnusedPid());
  int rc = -1;
  nlohmann::json doc = RunJson({"job", "--pids", gone + "," + also_gone}, &rc);
  EXPECT_EQ(rc, 3);
  EXPECT_EQ(doc["error"]["exit_status"], 3);
  EXPECT_EQ(doc["error"]["message"], "no rank of the job could be read");
  const nlohmann::json& ranks = doc["error"]["ranks"];
  ASSERT_EQ(ranks.size(), 2u) << doc.dump(1);
  EXPECT_EQ(ranks[0]["target"], "pid " + gone);
  EXPECT_EQ(ranks[0]["error_kind"], 3);
  EXPECT_NE(ranks[0]["error"].get<std::string>().find("no process " + gone), std::string::npos)
      << doc.dump(1);
  EXPECT_EQ(ranks[1]["target"], "pid " + also_gone);
  EXPECT_NE(ranks[1]["error"].get<std::string>().find("no process " + also_gone),
            std::string::npos) << doc.dump(1);
}

// A process without MPI debugging support and one that is gone: a tool tells the two
// apart by error_kind; the first target decides the exit status.
TEST_F(LiveChild, JobErrorTellsMissingSupportFromMissingProcess) {
  const std::string gone = std::to_string(UnusedPid());
  int rc = -1;
  nlohmann::json doc = RunJson({"job", "--pids", Pid() + "," + gone}, &rc);
  EXPECT_EQ(rc, 1);
  EXPECT_EQ(doc["error"]["exit_status"], 1);
  const nlohmann::json& ranks = doc["error"]["ranks"];
  ASSERT_EQ(ranks.size(), 2u) << doc.dump(1);
  EXPECT_EQ(ranks[0]["target"], "pid " + Pid());
  EXPECT_EQ(ranks[0]["error_kind"], 1);
  EXPECT_NE(ranks[0]["error"].get<std::string>().find("no MPI debugging support"),
            std::string::npos) << doc.dump(1);
  EXPECT_EQ(ranks[1]["target"], "pid " + gone);
  EXPECT_EQ(ranks[1]["error_kind"], 3);
  // The other order: the missing process decides.
  doc = RunJson({"job", "--pids", gone + "," + Pid()}, &rc);
  EXPECT_EQ(rc, 3);
  EXPECT_EQ(doc["error"]["ranks"][0]["error_kind"], 3);
  EXPECT_EQ(doc["error"]["ranks"][1]["error_kind"], 1);
}

// One rank readable (the test child through the fake DLL), one gone: the job document
// carries the unreadable rank's reason; the readable rank has null there.
TEST_F(LiveChild, JobDocumentSaysWhyARankIsUnreadable) {
  const std::string gone = std::to_string(UnusedPid());
  int rc = -1;
  nlohmann::json doc = RunJson(
      {"job", "--pids", Pid() + "," + gone, "--plugin", FAKE_DLL_PATH, "--confirm", "0"}, &rc);
  ASSERT_EQ(rc, 4) << doc.dump(1);  // a verdict on part of the job
  EXPECT_EQ(doc["complete"], false);
  EXPECT_EQ(doc["schema"], "mpidbg.job/1");
  const nlohmann::json& ranks = doc["ranks"];
  ASSERT_EQ(ranks.size(), 2u) << doc.dump(1);
  int unreadable = 0;
  for (const nlohmann::json& r : ranks) {
    ASSERT_TRUE(r.contains("error") && r.contains("error_kind")) << r.dump();
    if (r["state"] == "unreadable") {
      ++unreadable;
      EXPECT_EQ(r["pid"], std::stoll(gone));
      EXPECT_NE(r["error"].get<std::string>().find("no process " + gone), std::string::npos)
          << r.dump();
      EXPECT_EQ(r["error_kind"], 3);
    } else {
      EXPECT_EQ(r["pid"], child_);
      EXPECT_TRUE(r["error"].is_null()) << r.dump();
      EXPECT_TRUE(r["error_kind"].is_null()) << r.dump();
    }
  }
  EXPECT_EQ(unreadable, 1) << doc.dump(1);
}

TEST_F(LiveChild, ProcessHeldByAnotherTracerIs3) {
  // A tracer of our own holds the child; a process has only one tracer.
  int ready[2];
  ASSERT_EQ(pipe(ready), 0);
  pid_t tracer = fork();
  if (tracer == 0) {
    close(ready[0]);
    char ok = ptrace(PTRACE_SEIZE, child_, nullptr, nullptr) == 0 ? 1 : 0;
    if (write(ready[1], &ok, 1) != 1) _exit(1);
    for (;;) pause();
  }
  close(ready[1]);
  char ok = 0;
  ASSERT_EQ(read(ready[0], &ok, 1), 1);
  close(ready[0]);
  ASSERT_EQ(ok, 1) << "the helper could not trace the child";
  ExpectRefusal({"snapshot", "--pid", Pid()}, 3,
                "process " + Pid() + " is already traced by process " + std::to_string(tracer));
  ExpectRefusal({"handle", "--pid", Pid(), "--kind", "comm", "0x1"}, 3, "is already traced");
  kill(tracer, SIGKILL);
  waitpid(tracer, nullptr, 0);  // the kernel detaches the dead tracer
  ExpectRefusal({"snapshot", "--pid", Pid()}, 1, "no MPI debugging support");
}

TEST_F(LiveChild, AnotherUsersProcessIs3) {
  if (geteuid() == 0) {
    // As root: read our (root's) child as user nobody.
    if (std::system("command -v setpriv >/dev/null") != 0) GTEST_SKIP() << "no setpriv";
    const std::string nobody = "setpriv --reuid=65534 --regid=65534 --clear-groups";
    ExpectRefusal({"snapshot", "--pid", Pid()}, 3,
                  "process " + Pid() +
                      " belongs to another user (uid 0); reading it needs root "
                      "or CAP_SYS_PTRACE",
                  nobody);
  } else {
    ExpectRefusal({"snapshot", "--pid", "1"}, 3, "process 1 belongs to another user");
  }
}

TEST_F(LiveChild, DllWithoutTheNeededInterfaceIs1) {
  ExpectRefusal(
      {"handle", "--pid", Pid(), "--plugin", FAKE_FOREIGN_DLL_PATH, "--kind", "comm", "0x1"}, 1,
      std::string(FAKE_FOREIGN_DLL_PATH) +
          " has no MPI handle interface: it does not export mpidbg_init_once");
  const std::string libm = "/usr/lib/x86_64-linux-gnu/libm.so.6";
  if (access(libm.c_str(), R_OK) == 0) {
    // A library the user named that is no message-queue DLL: a usage error, not "the
    // target has no support".
    ExpectRefusal({"snapshot", "--pid", Pid(), "--plugin", libm}, 2,
                  libm +
                      " (--plugin) is not a message-queue DLL: it does not export "
                      "mqs_setup_basic_callbacks or any other mqs_* function");
  }
}

// 1 means the target lacks support; a --plugin that cannot be loaded is the command
// line's fault: 2, for every command that takes one.
TEST_F(LiveChild, PluginThatIsNoDllIs2) {
  ScratchDir scratch;
  std::string text = scratch.path + "/plugin.so";
  std::ofstream(text) << "not a shared library\n";
  ExpectRefusal({"snapshot", "--pid", Pid(), "--plugin", text}, 2,
                "cannot load the message-queue DLL " + text + " (--plugin): not an ELF shared "
                "library");
  ExpectRefusal({"handle", "--pid", Pid(), "--plugin", text, "--kind", "comm", "0x1"}, 2,
                "cannot load the message-queue DLL " + text);
  ExpectRefusal({"job", "--pids", Pid(), "--plugin", text}, 2,
                "cannot load the message-queue DLL " + text);
  ExpectRefusal({"snapshot", "--pid", Pid(), "--plugin", "/nonexistent/libplugin.so"}, 2,
                "cannot load the message-queue DLL /nonexistent/libplugin.so (--plugin): No "
                "such file or directory");
}

TEST(BadUsage, HandleArgumentsAre2) {
  ExpectRefusal({"handle", "--pid", "1"}, 2, "give exactly one of a handle VALUE or --expr");
  ExpectRefusal({"handle", "--pid", "1", "0x44000000"}, 2, "--kind KIND is needed");
  ExpectRefusal({"handle", "--pid", "1", "--kind", "socket", "1"}, 2, "--kind needs one of");
  ExpectRefusal({"handle", "--core", "x", "--pid", "1", "--kind", "comm", "1"}, 2,
                "give exactly one of --pid PID or --core FILE");
}

}  // namespace
}  // namespace mpidbg::test

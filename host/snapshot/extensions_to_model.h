// extensions_to_model.h — turning what a message-queue DLL returns (mpidbg_* extension
// structures, or plain mqs_* structures from a foreign DLL) into the host model.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "host/model/snapshot.h"
#include "host/util/fixed_string.h"
#include "host/util/hex_string.h"
#include "mpidbg/mpidbg_ext.h"
#include "mpidbg/mqs_interface.h"

namespace mpidbg::host {

// Normalised rank (MPIDBG_RANK_*) to the model.
model::Rank RankFromNormalised(int32_t value);
model::Tag TagFromNormalised(int32_t value);
std::string ThreadLevelName(int32_t level);
std::string ProcessStateName(int32_t state);
std::string ThreadStateName(int32_t state);
std::string CallClassName(int32_t call_class);

model::Operation OperationFromExtension(const mpidbg_operation_info& info);
// From a foreign DLL: only the Forum's fields. `op_class` is mqs_pending_sends, ...
model::Operation OperationFromMqs(const mqs_pending_operation& op, int op_class);
// `capture_time_ns` is when the state was captured (see OpenedTarget).
model::Thread ThreadFromExtension(const mpidbg_thread_info& info, int64_t capture_time_ns);
void ApplySummary(const mpidbg_process_summary& summary, model::ProcessInfo* process);
// What the DLL's walk left out; nullopt from a DLL that does not fill those counts.
std::optional<model::WalkDamage> DamageFromSummary(const mpidbg_process_summary& summary);
model::TrafficCount TrafficFromExtension(const mpidbg_traffic_info& info);
model::LoggedSend LoggedSendFromExtension(const mpidbg_logged_send_info& info);
model::LaunchInfo LaunchFromExtension(const mpidbg_launch_summary& info);
// A control variable (performance == 0) or performance variable.
model::MpitVariable MpitVariableFromExtension(const mpidbg_mpit_variable& info);

}  // namespace mpidbg::host

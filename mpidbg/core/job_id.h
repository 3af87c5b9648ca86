// job_id.h — job-wide communicator identities, computed locally without messages.
//
// Every member of a communicator derives the same 64-bit id from facts all members share:
//  - MPI_COMM_WORLD: a constant.
//  - MPI_COMM_SELF: hash("self", world rank).
//  - a communicator made by a collective over a parent (dup, split, create, cart,
//    merge, ...): hash(parent id, how many such calls this process made on the parent
//    before, member hash). Members make the same collective calls on the parent in the
//    same order, so the counter agrees on all of them. A duplicate (MPI_Comm_dup,
//    _dup_with_info, _idup, _idup_with_info) has its parent's group, which the parent's
//    id already stands for: its member hash is the constant kDuplicateMembers, so a
//    duplicate costs no pass over its members (thousands of them in a large job).
//  - MPI_Comm_create_group (collective over the group only): hash(parent id, tag,
//    member hash, counter per (parent, members)).
//  - MPI_Intercomm_create: symmetric in the two groups: hash(tag, min and max of the two
//    groups' member hashes, counter per that key).
// The member hash of an intercommunicator combines both groups symmetrically, so both
// sides agree on it. An intercommunicator between two jobs (rt/comms/dynamic_jobs.cc)
// has no member hash both sides can compute alone: the sides exchange their launcher
// job ids and world ranks, then hash the two (job id, ranks) sides in a fixed order. No id is ever 0 (0 means "unknown" in records).
#ifndef MPIDBG_CORE_JOB_ID_H
#define MPIDBG_CORE_JOB_ID_H

#include <stdint.h>

namespace mpidbg::core {

// splitmix64's finaliser: a bijective, well-avalanching 64-bit mix.
constexpr uint64_t Mix64(uint64_t x) {
  x += UINT64_C(0x9e3779b97f4a7c15);
  x = (x ^ (x >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
  x = (x ^ (x >> 27)) * UINT64_C(0x94d049bb133111eb);
  return x ^ (x >> 31);
}

// Order-dependent combination of a running hash and one more value.
constexpr uint64_t Combine(uint64_t h, uint64_t v) {
  return Mix64(h ^ (Mix64(v) + UINT64_C(0x632be59bd9b4e019) + (h << 6) + (h >> 2)));
}

// Never 0: 0 marks an unknown id.
constexpr uint64_t NonZero(uint64_t h) { return h == 0 ? UINT64_C(0x5bd1e9955bd1e995) : h; }

// FNV-1a of a short tag string (domain separation for the different recipes).
constexpr uint64_t TagHash(const char* s) {
  uint64_t h = UINT64_C(0xcbf29ce484222325);
  for (; *s != '\0'; ++s) h = (h ^ static_cast<uint8_t>(*s)) * UINT64_C(0x100000001b3);
  return h;
}

constexpr uint64_t kWorldJobId = UINT64_C(0x574f524c44000001);  // "WORLD" + 1

// The member hash a duplicate's id is derived with (above).
constexpr uint64_t kDuplicateMembers = TagHash("duplicate");

// Hash of a group's world ranks in rank order.
uint64_t HashRanks(const int32_t* world_ranks, int32_t count);
// Member hash of a communicator: intracommunicator = HashRanks(local); intercommunicator
// = symmetric combination of local and remote, equal on both sides.
uint64_t MemberHash(const int32_t* local, int32_t local_count, const int32_t* remote,
                    int32_t remote_count, bool inter);

uint64_t SelfJobId(int32_t world_rank);

// Counter keys (the runtime keeps one counter per key) and the ids themselves.
uint64_t DerivedCounterKey(uint64_t parent_job_id);
uint64_t DerivedJobId(uint64_t parent_job_id, uint64_t counter, uint64_t member_hash);

uint64_t CreateGroupCounterKey(uint64_t parent_job_id, uint64_t member_hash);
uint64_t CreateGroupJobId(uint64_t parent_job_id, int32_t tag, uint64_t member_hash,
                          uint64_t counter);

uint64_t IntercommCounterKey(int32_t tag, uint64_t group_a_hash, uint64_t group_b_hash);
uint64_t IntercommJobId(uint64_t counter_key, uint64_t counter);

}  // namespace mpidbg::core

#endif  // MPIDBG_CORE_JOB_ID_H

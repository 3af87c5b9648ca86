// objects_check — 2 ranks. Creates every handle kind of this area (communicators with
// every constructor, groups with every group call, info objects, errhandlers, reduction
// ops, and sessions where MPI has them) and checks their records field by field, then
// frees them and checks the orphans. Usage: rt_objects_<f> <mpich|openmpi>.
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "rt_check.h"

using namespace rtcheck;

namespace {

const mpidbg_root* R = nullptr;
int g_size = 0;
int g_other = 0;  // the other rank

// ---- finding records as a debugger does ----

// The newest communicator record of `handle` (live only unless asked).
const mpidbg_comm_record* FindComm(uint64_t handle, bool live_only = true) {
  const mpidbg_comm_record* best = nullptr;
  for (const auto* c : Records<mpidbg_comm_record>(R->comms)) {
    if (c->handle != handle) continue;
    if (live_only && (c->hdr.flags & MPIDBG_REC_FREED) != 0) continue;
    if (best == nullptr || c->create_serial > best->create_serial) best = c;
  }
  return best;
}

const mpidbg_comm_record* FindCommByJob(uint64_t job_id) {
  for (const auto* c : Records<mpidbg_comm_record>(R->comms))
    if (c->job_id == job_id) return c;
  return nullptr;
}

template <typename Rec>
const Rec* Live(const mpidbg_table& t, uint64_t handle) {
  return FindObject<Rec>(t, handle, true);
}

template <typename Rec>
const Rec* Newest(const mpidbg_table& t, uint64_t handle) {
  return FindObject<Rec>(t, handle, false);
}

template <typename Rec>
const Rec* Predefined(const mpidbg_table& t, uint64_t handle) {
  for (const Rec* r : Records<Rec>(t)) {
    if (r->obj.handle == handle && (r->obj.hdr.flags & MPIDBG_REC_PREDEFINED) != 0) return r;
  }
  return nullptr;
}

std::vector<int32_t> Ints(const mpidbg_array& a) {
  std::vector<int32_t> v;
  if (a.address != 0 && a.elem_size == sizeof(int32_t)) {
    const int32_t* p = ArrayAt<int32_t>(a);
    v.assign(p, p + a.count);
  }
  return v;
}

std::vector<int64_t> Int64s(const mpidbg_array& a) {
  std::vector<int64_t> v;
  if (a.address != 0 && a.elem_size == sizeof(int64_t)) {
    const int64_t* p = ArrayAt<int64_t>(a);
    v.assign(p, p + a.count);
  }
  return v;
}

std::string Show(const std::vector<int32_t>& v) {
  std::string s = "{";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
  return s + "}";
}

#define CHECK_INTS(array, ...)                                                             \
  do {                                                                                     \
    const std::vector<int32_t> got_ = Ints(array), want_ = std::vector<int32_t>{__VA_ARGS__}; \
    if (got_ != want_) {                                                                   \
      fprintf(stderr, "[rank %d] %s:%d: check failed: %s is %s, expected %s\n", g_rank,     \
              __FILE__, __LINE__, #array, Show(got_).c_str(), Show(want_).c_str());        \
      ++g_failures;                                                                        \
    }                                                                                      \
  } while (0)

using Entries = std::vector<std::pair<std::string, std::string>>;

Entries Decode(const mpidbg_info_record* r) {
  Entries out;
  if (r == nullptr || r->entries.address == 0) return out;
  const char* p = ArrayAt<char>(r->entries);
  const char* end = p + r->entries.count;
  while (p < end) {
    std::string key = p;
    p += key.size() + 1;
    if (p >= end) break;
    std::string value = p;
    p += value.size() + 1;
    out.emplace_back(key, value);
  }
  return out;
}

// Every entry of an info object, read through MPI, sorted by key.
Entries ReadInfo(MPI_Info info) {
  Entries out;
  int n = 0;
  MPI_Info_get_nkeys(info, &n);
  for (int i = 0; i < n; ++i) {
    char key[MPI_MAX_INFO_KEY + 1];
    MPI_Info_get_nthkey(info, i, key);
    int len = 0, flag = 0;
    MPI_Info_get_valuelen(info, key, &len, &flag);
    std::string value(static_cast<size_t>(len) + 1, '\0');
    MPI_Info_get(info, key, len, &value[0], &flag);
    value.resize(strlen(value.c_str()));
    out.emplace_back(key, value);
  }
  std::sort(out.begin(), out.end());
  return out;
}

// The same value on every rank.
bool SameEverywhere(uint64_t v) {
  std::vector<uint64_t> all(g_size);
  MPI_Allgather(&v, 1, MPI_UINT64_T, all.data(), 1, MPI_UINT64_T, MPI_COMM_WORLD);
  for (uint64_t x : all)
    if (x != v) return false;
  return true;
}

uint64_t ErrhandlerOf(MPI_Comm comm) {
  MPI_Errhandler eh;
  MPI_Comm_get_errhandler(comm, &eh);
  const uint64_t v = U64(eh);
  MPI_Errhandler_free(&eh);
  return v;
}

void CommEh(MPI_Comm*, int*, ...) {}
void WinEh(MPI_Win*, int*, ...) {}
void FileEh(MPI_File*, int*, ...) {}
void MaxAbs(void* in, void* inout, int* len, MPI_Datatype*) {
  auto* a = static_cast<int*>(in);
  auto* b = static_cast<int*>(inout);
  for (int i = 0; i < *len; ++i) {
    int x = a[i] < 0 ? -a[i] : a[i], y = b[i] < 0 ? -b[i] : b[i];
    b[i] = x > y ? x : y;
  }
}

template <typename F>
uint64_t Fn(F* f) {
  return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(f));
}

// Common checks of a new (non-predefined) communicator record.
const mpidbg_comm_record* CheckNewComm(MPI_Comm comm, int32_t creator, const char* what) {
  const mpidbg_comm_record* c = FindComm(U64(comm));
  if (c == nullptr) {
    fprintf(stderr, "[rank %d] no record for %s\n", g_rank, what);
    ++g_failures;
    SameEverywhere(0);
    return nullptr;
  }
  RT_CHECK_EQ(c->creator, creator);
  RT_CHECK_EQ(c->hdr.flags & (MPIDBG_REC_PREDEFINED | MPIDBG_REC_FREED | MPIDBG_REC_RELEASED), 0);
  RT_CHECK_EQ(c->fortran_index, MPI_Comm_c2f(comm));
  RT_CHECK(c->create_time_ns > 0);
  RT_CHECK(c->create_serial > 0 && c->create_serial <= R->create_counter);
  RT_CHECK_EQ(c->free_serial, 0);
  RT_CHECK_EQ(c->errhandler, ErrhandlerOf(comm));
  int rank = -1, size = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  RT_CHECK_EQ(c->rank, rank);
  RT_CHECK_EQ(c->size, size);
  if (!SameEverywhere(c->job_id)) {
    fprintf(stderr, "[rank %d] job id of %s differs across ranks\n", g_rank, what);
    ++g_failures;
  }
  return c;
}

// ---------------------------------------------------------------------------------------

void CheckPredefined() {
  // MPI_COMM_WORLD's appended fields.
  const mpidbg_comm_record* w = FindComm(U64(MPI_COMM_WORLD));
  RT_CHECK(w != nullptr);
  if (w != nullptr) {
    RT_CHECK_EQ(w->fortran_index, MPI_Comm_c2f(MPI_COMM_WORLD));
    RT_CHECK_EQ(w->errhandler, ErrhandlerOf(MPI_COMM_WORLD));
    RT_CHECK(w->errhandler != 0);
    RT_CHECK_EQ(w->create_time_ns, 0);
    RT_CHECK_EQ(w->topology, MPIDBG_TOPO_NONE);
    RT_CHECK_EQ(w->topo_args.count, 0);
    RT_CHECK_EQ(w->attributes.count, 0);
    RT_CHECK_EQ(w->info, 0);
    RT_CHECK(w->create_serial > 0);
  }

  const auto* empty = Predefined<mpidbg_group_record>(R->groups, U64(MPI_GROUP_EMPTY));
  RT_CHECK(empty != nullptr);
  if (empty != nullptr) {
    RT_CHECK_STREQ(empty->obj.name, "MPI_GROUP_EMPTY");
    RT_CHECK_EQ(empty->obj.creator, MPIDBG_CALL_MPIDBG_PREDEFINED);
    RT_CHECK_EQ(empty->obj.create_time_ns, 0);
    RT_CHECK_EQ(empty->obj.fortran_index, MPI_Group_c2f(MPI_GROUP_EMPTY));
    RT_CHECK_EQ(empty->size, 0);
    RT_CHECK_EQ(empty->rank, -1);
    RT_CHECK_EQ(empty->world_ranks.count, 0);
  }

  const struct {
    MPI_Op op;
    const char* name;
  } ops[] = {{MPI_MAX, "MPI_MAX"},     {MPI_MIN, "MPI_MIN"},       {MPI_SUM, "MPI_SUM"},
             {MPI_PROD, "MPI_PROD"},   {MPI_LAND, "MPI_LAND"},     {MPI_BAND, "MPI_BAND"},
             {MPI_LOR, "MPI_LOR"},     {MPI_BOR, "MPI_BOR"},       {MPI_LXOR, "MPI_LXOR"},
             {MPI_BXOR, "MPI_BXOR"},   {MPI_MINLOC, "MPI_MINLOC"}, {MPI_MAXLOC, "MPI_MAXLOC"},
             {MPI_REPLACE, "MPI_REPLACE"}, {MPI_NO_OP, "MPI_NO_OP"}};
  for (const auto& o : ops) {
    const auto* r = Predefined<mpidbg_reduce_op_record>(R->reduce_ops, U64(o.op));
    RT_CHECK(r != nullptr);
    if (r == nullptr) continue;
    RT_CHECK_STREQ(r->obj.name, o.name);
    RT_CHECK_EQ(r->commute, 1);
    RT_CHECK_EQ(r->function, 0);
    RT_CHECK_EQ(r->obj.fortran_index, MPI_Op_c2f(o.op));
    RT_CHECK_EQ(r->obj.creator, MPIDBG_CALL_MPIDBG_PREDEFINED);
  }

  const struct {
    MPI_Errhandler eh;
    const char* name;
  } ehs[] = {{MPI_ERRORS_ARE_FATAL, "MPI_ERRORS_ARE_FATAL"},
             {MPI_ERRORS_RETURN, "MPI_ERRORS_RETURN"},
#ifdef MPI_ERRORS_ABORT
             {MPI_ERRORS_ABORT, "MPI_ERRORS_ABORT"},
#endif
  };
  for (const auto& e : ehs) {
    const auto* r = Predefined<mpidbg_errhandler_record>(R->errhandlers, U64(e.eh));
    RT_CHECK(r != nullptr);
    if (r == nullptr) continue;
    RT_CHECK_STREQ(r->obj.name, e.name);
    RT_CHECK_EQ(r->target, MPIDBG_ERRH_ANY);
    RT_CHECK_EQ(r->function, 0);
    RT_CHECK_EQ(r->obj.fortran_index, MPI_Errhandler_c2f(e.eh));
  }

  const auto* env = Predefined<mpidbg_info_record>(R->infos, U64(MPI_INFO_ENV));
  RT_CHECK(env != nullptr);
  if (env != nullptr) {
    RT_CHECK_STREQ(env->obj.name, "MPI_INFO_ENV");
    RT_CHECK_EQ(env->obj.fortran_index, MPI_Info_c2f(MPI_INFO_ENV));
    const Entries want = ReadInfo(MPI_INFO_ENV);
    RT_CHECK_EQ(env->nkeys, static_cast<int>(want.size()));
    RT_CHECK(Decode(env) == want);
  }
}

// ---------------------------------------------------------------------------------------

int CopyPlusOne(MPI_Comm, int, void*, void* in, void* out, int* flag) {
  *static_cast<void**>(out) = reinterpret_cast<void*>(reinterpret_cast<uintptr_t>(in) + 1);
  *flag = 1;
  return MPI_SUCCESS;
}

// The (keyval, value) pairs recorded for `comm`; empty if it has no record.
std::vector<int64_t> AttributesOf(MPI_Comm comm) {
  const auto* c = FindComm(U64(comm));
  RT_CHECK(c != nullptr);
  return c != nullptr ? Int64s(c->attributes) : std::vector<int64_t>{};
}

void CheckCopiedAttributes() {
  int same = 0, plus = 0, none = 0;
  MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &same, nullptr);
  MPI_Comm_create_keyval(CopyPlusOne, MPI_COMM_NULL_DELETE_FN, &plus, nullptr);
  MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &none, nullptr);
  MPI_Comm parent;
  MPI_Comm_dup(MPI_COMM_WORLD, &parent);
  MPI_Comm_set_attr(parent, same, reinterpret_cast<void*>(uintptr_t{0x100}));
  MPI_Comm_set_attr(parent, plus, reinterpret_cast<void*>(uintptr_t{0x200}));
  MPI_Comm_set_attr(parent, none, reinterpret_cast<void*>(uintptr_t{0x300}));
  // What the duplicate must show, in keyval order.
  std::vector<std::pair<int64_t, int64_t>> copied = {{same, 0x100}, {plus, 0x201}};
  std::sort(copied.begin(), copied.end());
  std::vector<int64_t> expected;
  for (const auto& kv : copied) {
    expected.push_back(kv.first);
    expected.push_back(kv.second);
  }
  MPI_Comm children[3];
  MPI_Comm_dup(parent, &children[0]);
  MPI_Comm_dup_with_info(parent, MPI_INFO_NULL, &children[1]);
  MPI_Request request;
  MPI_Comm_idup(parent, &children[2], &request);
  MPI_Wait(&request, MPI_STATUS_IGNORE);
  for (MPI_Comm& child : children) {
    RT_CHECK(AttributesOf(child) == expected);
    // MPI's own view agrees.
    void* value = nullptr;
    int found = 0;
    MPI_Comm_get_attr(child, none, &value, &found);
    RT_CHECK_EQ(found, 0);
    MPI_Comm_free(&child);
  }
  // Other constructors copy nothing.
  MPI_Comm split;
  MPI_Comm_split(parent, 0, g_rank, &split);
  RT_CHECK(AttributesOf(split).empty());
  MPI_Comm_free(&split);
  MPI_Comm_free(&parent);
  MPI_Comm_free_keyval(&same);
  MPI_Comm_free_keyval(&plus);
  MPI_Comm_free_keyval(&none);
}

void CheckCommunicators() {
  const uint64_t world_eh = ErrhandlerOf(MPI_COMM_WORLD);

  MPI_Comm dup;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  if (const auto* c = CheckNewComm(dup, MPIDBG_CALL_MPI_Comm_dup, "dup")) {
    RT_CHECK_EQ(c->errhandler, world_eh);  // inherited
    RT_CHECK_EQ(c->info, 0);
    RT_CHECK_EQ(c->topology, MPIDBG_TOPO_NONE);
  }
  {
    // A duplicate's rank comes from its parent's record: one whose ranks run the other way
    // than MPI_COMM_WORLD's (CheckNewComm compares rank and members with MPI's).
    MPI_Comm reversed, reversed_dup;
    MPI_Comm_split(MPI_COMM_WORLD, 0, -g_rank, &reversed);
    MPI_Comm_dup(reversed, &reversed_dup);
    if (const auto* c = CheckNewComm(reversed_dup, MPIDBG_CALL_MPI_Comm_dup, "reversed dup")) {
      int size = 0;
      MPI_Comm_size(MPI_COMM_WORLD, &size);
      RT_CHECK_EQ(c->rank, size - 1 - g_rank);
      const auto* ranks = reinterpret_cast<const int32_t*>(static_cast<uintptr_t>(c->world_ranks));
      if (ranks != nullptr && c->size == size) RT_CHECK_EQ(ranks[c->rank], g_rank);
    }
    MPI_Comm_free(&reversed_dup);
    MPI_Comm_free(&reversed);
  }

  // Info given at creation and by MPI_Comm_set_info.
  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, "mpi_assert_no_any_tag", "false");
  MPI_Comm dupi;
  MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, &dupi);
  if (const auto* c = CheckNewComm(dupi, MPIDBG_CALL_MPI_Comm_dup_with_info, "dup_with_info"))
    RT_CHECK_EQ(c->info, U64(info));
  MPI_Comm shared;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 7, info, &shared);
  if (const auto* c = CheckNewComm(shared, MPIDBG_CALL_MPI_Comm_split_type, "split_type")) {
    RT_CHECK_EQ(c->info, U64(info));
    RT_CHECK_EQ(c->split_color, MPI_COMM_TYPE_SHARED);
    RT_CHECK_EQ(c->split_key, 7);
  }
  MPI_Info info2;
  MPI_Info_create(&info2);
  MPI_Comm_set_info(dup, info2);
  if (const auto* c = FindComm(U64(dup))) RT_CHECK_EQ(c->info, U64(info2));

  // Topologies, read back from MPI.
  MPI_Comm cart;
  int dims1[1] = {2}, periods1[1] = {1};
  MPI_Cart_create(MPI_COMM_WORLD, 1, dims1, periods1, 1, &cart);
  if (const auto* c = CheckNewComm(cart, MPIDBG_CALL_MPI_Cart_create, "cart")) {
    int coords[1];
    MPI_Cart_coords(cart, c->rank, 1, coords);
    RT_CHECK_EQ(c->topology, MPIDBG_TOPO_CART);
    RT_CHECK(c->hdr.flags & MPIDBG_COMM_CART);
    CHECK_INTS(c->topo_args, 1, 2, 1, coords[0], 1);
  }
  MPI_Comm cart2, sub;
  int dims2[2] = {2, 1}, periods2[2] = {0, 1}, remain[2] = {1, 0};
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims2, periods2, 0, &cart2);
  if (const auto* c = CheckNewComm(cart2, MPIDBG_CALL_MPI_Cart_create, "cart2")) {
    int coords[2];
    MPI_Cart_coords(cart2, c->rank, 2, coords);
    CHECK_INTS(c->topo_args, 2, 2, 1, 0, 1, coords[0], coords[1], 0);
  }
  MPI_Cart_sub(cart2, remain, &sub);
  if (const auto* c = CheckNewComm(sub, MPIDBG_CALL_MPI_Cart_sub, "cart_sub")) {
    int coords[1];
    MPI_Cart_coords(sub, c->rank, 1, coords);
    RT_CHECK_EQ(c->topology, MPIDBG_TOPO_CART);
    CHECK_INTS(c->topo_args, 1, 2, 0, coords[0], 0);
    RT_CHECK_EQ(c->parent_job_id, FindComm(U64(cart2))->job_id);
  }

  MPI_Comm graph;
  int index[2] = {1, 2}, edges[2] = {1, 0};
  MPI_Graph_create(MPI_COMM_WORLD, 2, index, edges, 0, &graph);
  if (const auto* c = CheckNewComm(graph, MPIDBG_CALL_MPI_Graph_create, "graph")) {
    RT_CHECK_EQ(c->topology, MPIDBG_TOPO_GRAPH);
    RT_CHECK(c->hdr.flags & MPIDBG_COMM_GRAPH);
    CHECK_INTS(c->topo_args, 2, 2, 1, 2, 1, 0, 0);
  }

  MPI_Comm adj, adj_unweighted, dist;
  int sources[1] = {g_other}, sw[1] = {5}, dests[1] = {g_other}, dw[1] = {7};
  MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, sources, sw, 1, dests, dw, info, 0, &adj);
  if (const auto* c = CheckNewComm(adj, MPIDBG_CALL_MPI_Dist_graph_create_adjacent, "adjacent")) {
    RT_CHECK_EQ(c->topology, MPIDBG_TOPO_DIST_GRAPH);
    RT_CHECK(c->hdr.flags & MPIDBG_COMM_DIST_GRAPH);
    RT_CHECK_EQ(c->info, U64(info));
    CHECK_INTS(c->topo_args, 1, 1, 1, g_other, 5, g_other, 7, 0);
  }
  MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, sources, MPI_UNWEIGHTED, 1, dests,
                                 MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &adj_unweighted);
  if (const auto* c = CheckNewComm(adj_unweighted, MPIDBG_CALL_MPI_Dist_graph_create_adjacent,
                                   "adjacent unweighted")) {
    RT_CHECK_EQ(c->info, 0);
    CHECK_INTS(c->topo_args, 1, 1, 0, g_other, g_other, 0);
  }
  int me[1] = {g_rank}, degree[1] = {1};
  MPI_Dist_graph_create(MPI_COMM_WORLD, 1, me, degree, dests, MPI_UNWEIGHTED, info, 0, &dist);
  if (const auto* c = CheckNewComm(dist, MPIDBG_CALL_MPI_Dist_graph_create, "dist_graph")) {
    RT_CHECK_EQ(c->info, U64(info));
    CHECK_INTS(c->topo_args, 1, 1, 0, g_other, g_other, 0);
  }

  // A dup of a cartesian communicator inherits its topology.
  MPI_Comm cart_dup;
  MPI_Comm_dup(cart, &cart_dup);
  if (const auto* c = CheckNewComm(cart_dup, MPIDBG_CALL_MPI_Comm_dup, "cart dup")) {
    RT_CHECK_EQ(c->topology, MPIDBG_TOPO_CART);
    RT_CHECK_EQ(c->topo_args.count, 5);
  }

  // Intercommunicator between the two single-rank halves, and its merge.
  MPI_Comm half, inter, merged;
  MPI_Comm_split(MPI_COMM_WORLD, g_rank, 0, &half);
  MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, g_other, 9, &inter);
  if (const auto* c = CheckNewComm(inter, MPIDBG_CALL_MPI_Intercomm_create, "intercomm")) {
    RT_CHECK(c->hdr.flags & MPIDBG_COMM_INTER);
    RT_CHECK_EQ(c->remote_size, 1);
    RT_CHECK_EQ(c->topology, MPIDBG_TOPO_NONE);
    if (c->remote_world_ranks != 0) RT_CHECK_EQ(At<int32_t>(c->remote_world_ranks)[0], g_other);
  }
  MPI_Intercomm_merge(inter, g_rank, &merged);
  CheckNewComm(merged, MPIDBG_CALL_MPI_Intercomm_merge, "merge");

  // Attributes: (keyval, value) pairs in keyval order, replaced on every change.
  int kv1, kv2;
  MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &kv1, nullptr);
  MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &kv2, nullptr);
  const int lo = kv1 < kv2 ? kv1 : kv2, hi = kv1 < kv2 ? kv2 : kv1;
  static int target = 0;
  MPI_Comm_set_attr(dup, hi, &target);
  MPI_Comm_set_attr(dup, lo, reinterpret_cast<void*>(uintptr_t{0x1234}));
  if (const auto* c = FindComm(U64(dup))) {
    RT_CHECK(Int64s(c->attributes) ==
             (std::vector<int64_t>{lo, 0x1234, hi, static_cast<int64_t>(Addr(&target))}));
  }
  MPI_Comm_set_attr(dup, lo, reinterpret_cast<void*>(uintptr_t{0x5678}));
  MPI_Comm_delete_attr(dup, hi);
  if (const auto* c = FindComm(U64(dup))) {
    RT_CHECK(Int64s(c->attributes) == (std::vector<int64_t>{lo, 0x5678}));
  }
  MPI_Comm_delete_attr(dup, lo);
  if (const auto* c = FindComm(U64(dup))) RT_CHECK_EQ(c->attributes.count, 0);
  MPI_Comm_set_attr(dup, kv1, reinterpret_cast<void*>(uintptr_t{1}));  // freed with dup

  // Attributes a duplicate gets through the copy callbacks: MPI sets them, the runtime
  // reads them back (MPI_COMM_DUP_FN: the same value; a callback of the application's:
  // its value; MPI_COMM_NULL_COPY_FN: none).
  CheckCopiedAttributes();

  // Freeing: an orphan, released at once (no pending operation).
  const uint64_t dup_handle = U64(dup);
  const uint64_t dup_job = FindComm(dup_handle)->job_id;
  const uint64_t frees_before = R->free_counter;
  MPI_Comm_free(&dup);
  RT_CHECK(FindComm(dup_handle) == nullptr);
  if (const auto* c = FindCommByJob(dup_job)) {
    RT_CHECK_EQ(c->hdr.flags & (MPIDBG_REC_FREED | MPIDBG_REC_RELEASED),
                MPIDBG_REC_FREED | MPIDBG_REC_RELEASED);
    RT_CHECK_EQ(c->free_serial, frees_before + 1);
    RT_CHECK_EQ(c->creator, MPIDBG_CALL_MPI_Comm_dup);
    RT_CHECK_EQ(c->attributes.count, 2);  // kept as it was
  } else {
    RT_CHECK(!"freed communicator kept as an orphan");
  }

  // MPI_Comm_disconnect frees like MPI_Comm_free.
  const uint64_t cart_dup_job = FindComm(U64(cart_dup))->job_id;
  MPI_Comm_disconnect(&cart_dup);
  if (const auto* c = FindCommByJob(cart_dup_job)) {
    RT_CHECK(c->hdr.flags & MPIDBG_REC_FREED);
    RT_CHECK(c->hdr.flags & MPIDBG_REC_RELEASED);
    RT_CHECK(c->free_serial > frees_before + 1);
  } else {
    RT_CHECK(!"disconnected communicator kept as an orphan");
  }

  // A communicator freed with an operation pending is released once that completes.
  MPI_Comm pend;
  MPI_Comm_dup(MPI_COMM_WORLD, &pend);
  const uint64_t pend_job = FindComm(U64(pend))->job_id;
  int in = -1, out = 42;
  MPI_Request req = MPI_REQUEST_NULL;
  if (g_rank == 0) MPI_Irecv(&in, 1, MPI_INT, 1, 7, pend, &req);
  if (g_rank == 1) MPI_Send(&out, 1, MPI_INT, 0, 7, pend);
  MPI_Comm_free(&pend);
  if (const auto* c = FindCommByJob(pend_job)) {
    RT_CHECK(c->hdr.flags & MPIDBG_REC_FREED);
    RT_CHECK_EQ(c->hdr.flags & MPIDBG_REC_RELEASED, g_rank == 0 ? 0 : MPIDBG_REC_RELEASED);
  } else {
    RT_CHECK(!"communicator with a pending receive kept");
  }
  if (g_rank == 0) MPI_Wait(&req, MPI_STATUS_IGNORE);
  RT_CHECK_EQ(in, g_rank == 0 ? 42 : -1);
  MPI_Comm later;
  MPI_Comm_dup(MPI_COMM_WORLD, &later);  // a creation re-checks unreleased communicators
  if (const auto* c = FindCommByJob(pend_job)) RT_CHECK(c->hdr.flags & MPIDBG_REC_RELEASED);

  for (MPI_Comm* c : {&dupi, &shared, &cart, &cart2, &sub, &graph, &adj, &adj_unweighted, &dist,
                      &half, &inter, &merged, &later})
    MPI_Comm_free(c);
  MPI_Comm_free_keyval(&kv1);
  MPI_Comm_free_keyval(&kv2);
  MPI_Info_free(&info);
  MPI_Info_free(&info2);
}

// ---------------------------------------------------------------------------------------

const mpidbg_group_record* CheckGroup(MPI_Group g, int32_t creator, const char* what) {
  const auto* r = Live<mpidbg_group_record>(R->groups, U64(g));
  if (r == nullptr) {
    fprintf(stderr, "[rank %d] no record for group %s\n", g_rank, what);
    ++g_failures;
    return nullptr;
  }
  int size = 0, rank = 0;
  MPI_Group_size(g, &size);
  MPI_Group_rank(g, &rank);
  RT_CHECK_EQ(r->obj.creator, creator);
  RT_CHECK_EQ(r->size, size);
  RT_CHECK_EQ(r->rank, rank == MPI_UNDEFINED ? -1 : rank);
  RT_CHECK_EQ(r->obj.fortran_index, MPI_Group_c2f(g));
  RT_CHECK(r->obj.create_time_ns > 0);
  RT_CHECK_EQ(r->obj.hdr.flags & (MPIDBG_REC_FREED | MPIDBG_REC_PREDEFINED), 0);
  RT_CHECK_EQ(r->world_ranks.count, static_cast<uint32_t>(size));
  return r;
}

void CheckGroups() {
  const uint64_t world_job = FindComm(U64(MPI_COMM_WORLD))->job_id;
  MPI_Group wg;
  MPI_Comm_group(MPI_COMM_WORLD, &wg);
  if (const auto* r = CheckGroup(wg, MPIDBG_CALL_MPI_Comm_group, "world")) {
    CHECK_INTS(r->world_ranks, 0, 1);
    RT_CHECK_EQ(r->source_handle, U64(MPI_COMM_WORLD));
    RT_CHECK_EQ(r->source_comm_job_id, world_job);
    RT_CHECK_EQ(r->args.count, 0);
  }

  MPI_Group incl, excl, rincl, rexcl, uni, inter, diff, empty;
  int one[1] = {1}, zero[1] = {0};
  MPI_Group_incl(wg, 1, one, &incl);
  if (const auto* r = CheckGroup(incl, MPIDBG_CALL_MPI_Group_incl, "incl")) {
    CHECK_INTS(r->world_ranks, 1);
    CHECK_INTS(r->args, 1);
    RT_CHECK_EQ(r->rank, g_rank == 1 ? 0 : -1);
    RT_CHECK_EQ(r->source_handle, U64(wg));
  }
  MPI_Group_excl(wg, 1, one, &excl);
  if (const auto* r = CheckGroup(excl, MPIDBG_CALL_MPI_Group_excl, "excl")) {
    CHECK_INTS(r->world_ranks, 0);
    CHECK_INTS(r->args, 1);
  }
  int all[1][3] = {{0, 1, 1}}, last[1][3] = {{1, 1, 1}};
  MPI_Group_range_incl(wg, 1, all, &rincl);
  if (const auto* r = CheckGroup(rincl, MPIDBG_CALL_MPI_Group_range_incl, "range_incl")) {
    CHECK_INTS(r->world_ranks, 0, 1);
    CHECK_INTS(r->args, 0, 1, 1);
  }
  MPI_Group_range_excl(wg, 1, last, &rexcl);
  if (const auto* r = CheckGroup(rexcl, MPIDBG_CALL_MPI_Group_range_excl, "range_excl")) {
    CHECK_INTS(r->world_ranks, 0);
    CHECK_INTS(r->args, 1, 1, 1);
  }
  MPI_Group_union(incl, excl, &uni);
  if (const auto* r = CheckGroup(uni, MPIDBG_CALL_MPI_Group_union, "union")) {
    CHECK_INTS(r->world_ranks, 1, 0);
    RT_CHECK_EQ(r->source_handle, U64(incl));
    RT_CHECK_EQ(r->source_handle2, U64(excl));
  }
  MPI_Group_intersection(wg, incl, &inter);
  if (const auto* r = CheckGroup(inter, MPIDBG_CALL_MPI_Group_intersection, "intersection")) {
    CHECK_INTS(r->world_ranks, 1);
    RT_CHECK_EQ(r->source_handle2, U64(incl));
  }
  MPI_Group_difference(wg, incl, &diff);
  if (const auto* r = CheckGroup(diff, MPIDBG_CALL_MPI_Group_difference, "difference")) {
    CHECK_INTS(r->world_ranks, 0);
  }

  // An empty result: MPI returns MPI_GROUP_EMPTY; the result gets its own record and
  // the predefined one stays.
  MPI_Group_incl(wg, 0, zero, &empty);
  if (const auto* r = CheckGroup(empty, MPIDBG_CALL_MPI_Group_incl, "empty")) {
    RT_CHECK_EQ(r->size, 0);
    RT_CHECK_EQ(r->rank, -1);
  }
  MPI_Group_free(&empty);
  RT_CHECK(Predefined<mpidbg_group_record>(R->groups, U64(MPI_GROUP_EMPTY)) != nullptr);

  // The remote group of an intercommunicator.
  MPI_Comm half, ic;
  MPI_Comm_split(MPI_COMM_WORLD, g_rank, 0, &half);
  MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, g_other, 3, &ic);
  MPI_Group remote;
  MPI_Comm_remote_group(ic, &remote);
  if (const auto* r = CheckGroup(remote, MPIDBG_CALL_MPI_Comm_remote_group, "remote")) {
    CHECK_INTS(r->world_ranks, g_other);
    RT_CHECK_EQ(r->rank, -1);
    RT_CHECK_EQ(r->source_handle, U64(ic));
    RT_CHECK_EQ(r->source_comm_job_id, FindComm(U64(ic))->job_id);
  }

  // MPI may hand out one group handle twice (a communicator's cached group): each is a
  // reference, and the record is freed with the last one.
  MPI_Group wg2;
  MPI_Comm_group(MPI_COMM_WORLD, &wg2);
  if (wg2 == wg) {
    const auto* before = Live<mpidbg_group_record>(R->groups, U64(wg));
    MPI_Group_free(&wg2);
    RT_CHECK(Live<mpidbg_group_record>(R->groups, U64(wg)) == before);
  } else {
    CheckGroup(wg2, MPIDBG_CALL_MPI_Comm_group, "world again");
    MPI_Group_free(&wg2);
  }

  // Groups of a window and of a file.
  char buf[64];
  MPI_Win win;
  MPI_Win_create(buf, sizeof buf, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  MPI_Group wing;
  MPI_Win_get_group(win, &wing);
  if (const auto* r = CheckGroup(wing, MPIDBG_CALL_MPI_Win_get_group, "window")) {
    CHECK_INTS(r->world_ranks, 0, 1);
    RT_CHECK_EQ(r->source_handle, U64(win));
    const auto* w = Live<mpidbg_window_record>(R->windows, U64(win));
    RT_CHECK_EQ(r->source_comm_job_id, w != nullptr ? w->comm_job_id : 0);
  }
  MPI_Group_free(&wing);
  MPI_Win_free(&win);

  int pid = static_cast<int>(getpid());
  MPI_Bcast(&pid, 1, MPI_INT, 0, MPI_COMM_WORLD);
  char path[128];
  snprintf(path, sizeof path, "/tmp/mpidbg_objects_check_%d", pid);
  MPI_File fh;
  if (MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                    MPI_INFO_NULL, &fh) == MPI_SUCCESS) {
    MPI_Group fg;
    MPI_File_get_group(fh, &fg);
    if (const auto* r = CheckGroup(fg, MPIDBG_CALL_MPI_File_get_group, "file")) {
      CHECK_INTS(r->world_ranks, 0, 1);
      RT_CHECK_EQ(r->source_handle, U64(fh));
      const auto* f = Live<mpidbg_file_record>(R->files, U64(fh));
      RT_CHECK_EQ(r->source_comm_job_id, f != nullptr ? f->comm_job_id : 0);
    }
    MPI_Group_free(&fg);
    MPI_File_close(&fh);
  } else {
    RT_CHECK(!"MPI_File_open in /tmp");
  }

  // Freeing: orphans marked freed and released, fields kept.
  const uint64_t incl_handle = U64(incl);
  const uint64_t frees = R->free_counter;
  MPI_Group_free(&incl);
  const auto* orphan = Newest<mpidbg_group_record>(R->groups, incl_handle);
  RT_CHECK(Live<mpidbg_group_record>(R->groups, incl_handle) == nullptr);
  RT_CHECK(orphan != nullptr);
  if (orphan != nullptr) {
    RT_CHECK_EQ(orphan->obj.hdr.flags & (MPIDBG_REC_FREED | MPIDBG_REC_RELEASED),
                MPIDBG_REC_FREED | MPIDBG_REC_RELEASED);
    RT_CHECK_EQ(orphan->obj.free_serial, frees + 1);
    RT_CHECK_EQ(orphan->obj.creator, MPIDBG_CALL_MPI_Group_incl);
    CHECK_INTS(orphan->world_ranks, 1);
  }
  for (MPI_Group* g : {&wg, &excl, &rincl, &rexcl, &uni, &inter, &diff, &remote}) MPI_Group_free(g);
  MPI_Comm_free(&ic);
  MPI_Comm_free(&half);
}

// ---------------------------------------------------------------------------------------

void CheckInfos() {
  MPI_Info info;
  MPI_Info_create(&info);
  const auto* r = Live<mpidbg_info_record>(R->infos, U64(info));
  RT_CHECK(r != nullptr);
  if (r == nullptr) return;
  RT_CHECK_EQ(r->obj.creator, MPIDBG_CALL_MPI_Info_create);
  RT_CHECK_EQ(r->nkeys, 0);
  RT_CHECK_EQ(r->entries.count, 0);
  RT_CHECK_EQ(r->obj.fortran_index, MPI_Info_c2f(info));
  RT_CHECK(r->obj.create_time_ns > 0);

  const std::string long_value(200, 'v');  // below MPI_MAX_INFO_VAL of both MPIs
  MPI_Info_set(info, "b", "2");
  MPI_Info_set(info, "a", "1");
  MPI_Info_set(info, "c", long_value.c_str());
  RT_CHECK_EQ(r->nkeys, 3);
  RT_CHECK(Decode(r) == (Entries{{"a", "1"}, {"b", "2"}, {"c", long_value}}));
  RT_CHECK_EQ(r->entries.count, 2 + 2 + 2 + 2 + 2 + 201);
  MPI_Info_set(info, "a", "one");
  MPI_Info_delete(info, "b");
  RT_CHECK_EQ(r->nkeys, 2);
  RT_CHECK(Decode(r) == (Entries{{"a", "one"}, {"c", long_value}}));

  MPI_Info copy;
  MPI_Info_dup(info, &copy);
  const auto* d = Live<mpidbg_info_record>(R->infos, U64(copy));
  RT_CHECK(d != nullptr);
  if (d != nullptr) {
    RT_CHECK_EQ(d->obj.creator, MPIDBG_CALL_MPI_Info_dup);
    RT_CHECK(Decode(d) == Decode(r));
    RT_CHECK(d->entries.address != r->entries.address);
  }

  // An info object MPI hands out (the hints in use) is recorded by the call that made
  // it, and follows later changes.
  MPI_Info got;
  MPI_Comm_get_info(MPI_COMM_WORLD, &got);
  MPI_Info_set(got, "mpidbg_key", "value");
  const auto* g = Live<mpidbg_info_record>(R->infos, U64(got));
  RT_CHECK(g != nullptr);
  if (g != nullptr) {
    RT_CHECK_EQ(g->obj.creator, MPIDBG_CALL_MPI_Comm_get_info);
    RT_CHECK(Decode(g) == ReadInfo(got));
  }
  MPI_Info_free(&got);

  const uint64_t handle = U64(info);
  MPI_Info_free(&info);
  RT_CHECK(Live<mpidbg_info_record>(R->infos, handle) == nullptr);
  const auto* o = Newest<mpidbg_info_record>(R->infos, handle);
  RT_CHECK(o != nullptr);
  if (o != nullptr) {
    RT_CHECK_EQ(o->obj.hdr.flags & (MPIDBG_REC_FREED | MPIDBG_REC_RELEASED),
                MPIDBG_REC_FREED | MPIDBG_REC_RELEASED);
    RT_CHECK(o->obj.free_serial > 0);
    RT_CHECK(Decode(o) == (Entries{{"a", "one"}, {"c", long_value}}));  // a stale copy decodes
  }
  MPI_Info_free(&copy);
}

// ---------------------------------------------------------------------------------------

void CheckErrhandlersAndOps() {
  MPI_Errhandler ceh, weh, feh;
  MPI_Comm_create_errhandler(&CommEh, &ceh);
  MPI_Win_create_errhandler(&WinEh, &weh);
  MPI_File_create_errhandler(&FileEh, &feh);
  const struct {
    MPI_Errhandler eh;
    uint64_t fn;
    int32_t target, creator;
  } made[] = {{ceh, Fn(&CommEh), MPIDBG_ERRH_COMM, MPIDBG_CALL_MPI_Comm_create_errhandler},
              {weh, Fn(&WinEh), MPIDBG_ERRH_WIN, MPIDBG_CALL_MPI_Win_create_errhandler},
              {feh, Fn(&FileEh), MPIDBG_ERRH_FILE, MPIDBG_CALL_MPI_File_create_errhandler}};
  for (const auto& m : made) {
    const auto* r = Live<mpidbg_errhandler_record>(R->errhandlers, U64(m.eh));
    RT_CHECK(r != nullptr);
    if (r == nullptr) continue;
    RT_CHECK_EQ(r->function, m.fn);
    RT_CHECK_EQ(r->target, m.target);
    RT_CHECK_EQ(r->obj.creator, m.creator);
    RT_CHECK_EQ(r->obj.fortran_index, MPI_Errhandler_c2f(m.eh));
    RT_CHECK_EQ(r->obj.hdr.flags, 0);
  }

  // Attached, then freed: MPI keeps it until the communicator lets go.
  MPI_Comm dup;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  MPI_Comm_set_errhandler(dup, ceh);
  RT_CHECK_EQ(FindComm(U64(dup))->errhandler, U64(ceh));
  MPI_Comm dup2;
  MPI_Comm_dup(dup, &dup2);  // inherits it (from the parent's record: MPI must agree)
  RT_CHECK_EQ(FindComm(U64(dup2))->errhandler, U64(ceh));
  RT_CHECK_EQ(FindComm(U64(dup2))->errhandler, ErrhandlerOf(dup2));
#if defined(MPICH_VERSION)
  {
    // MPI-1's MPI_Errhandler_set, which MPICH still exports, changes the record too, so
    // a duplicate made after it inherits what MPI gives it.
    MPI_Comm old_style, old_dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &old_style);
    MPI_Errhandler_set(old_style, MPI_ERRORS_RETURN);
    RT_CHECK_EQ(FindComm(U64(old_style))->errhandler, U64(MPI_ERRORS_RETURN));
    MPI_Comm_dup(old_style, &old_dup);
    RT_CHECK_EQ(FindComm(U64(old_dup))->errhandler, ErrhandlerOf(old_dup));
    RT_CHECK_EQ(FindComm(U64(old_dup))->errhandler, U64(MPI_ERRORS_RETURN));
    MPI_Comm_free(&old_dup);
    MPI_Comm_free(&old_style);
  }
#endif
  const uint64_t ceh_handle = U64(ceh);
  MPI_Errhandler_free(&ceh);
  const auto* r = Newest<mpidbg_errhandler_record>(R->errhandlers, ceh_handle);
  RT_CHECK(r != nullptr);
  if (r != nullptr) RT_CHECK_EQ(r->obj.hdr.flags, MPIDBG_REC_FREED);
  MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN);
  RT_CHECK_EQ(FindComm(U64(dup))->errhandler, U64(MPI_ERRORS_RETURN));
  if (r != nullptr) RT_CHECK_EQ(r->obj.hdr.flags, MPIDBG_REC_FREED);  // dup2 still has it
  MPI_Comm_free(&dup2);
  if (r != nullptr) RT_CHECK_EQ(r->obj.hdr.flags, MPIDBG_REC_FREED | MPIDBG_REC_RELEASED);
  MPI_Comm_free(&dup);

  // Not attached: released when freed.
  const uint64_t weh_handle = U64(weh);
  MPI_Errhandler_free(&weh);
  const auto* w = Newest<mpidbg_errhandler_record>(R->errhandlers, weh_handle);
  RT_CHECK(w != nullptr);
  if (w != nullptr) {
    RT_CHECK_EQ(w->obj.hdr.flags, MPIDBG_REC_FREED | MPIDBG_REC_RELEASED);
    RT_CHECK_EQ(w->function, Fn(&WinEh));
  }
  MPI_Errhandler_free(&feh);

  // A predefined errhandler handed out by MPI_Comm_get_errhandler and freed stays.
  MPI_Errhandler got;
  MPI_Comm_get_errhandler(MPI_COMM_WORLD, &got);
  const uint64_t got_handle = U64(got);
  MPI_Errhandler_free(&got);
  const auto* p = Live<mpidbg_errhandler_record>(R->errhandlers, got_handle);
  RT_CHECK(p != nullptr && (p->obj.hdr.flags & MPIDBG_REC_PREDEFINED) != 0);

  // User reduction op.
  MPI_Op op;
  MPI_Op_create(&MaxAbs, 0, &op);
  const auto* o = Live<mpidbg_reduce_op_record>(R->reduce_ops, U64(op));
  RT_CHECK(o != nullptr);
  if (o != nullptr) {
    RT_CHECK_EQ(o->function, Fn(&MaxAbs));
    RT_CHECK_EQ(o->commute, 0);
    RT_CHECK_EQ(o->obj.creator, MPIDBG_CALL_MPI_Op_create);
    RT_CHECK_EQ(o->obj.fortran_index, MPI_Op_c2f(op));
  }
  int v = g_rank == 0 ? -5 : 3, result = 0;
  MPI_Allreduce(&v, &result, 1, MPI_INT, op, MPI_COMM_WORLD);
  RT_CHECK_EQ(result, 5);  // the wrapper changed nothing
  MPI_Op commuting;
  MPI_Op_create(&MaxAbs, 1, &commuting);
  if (const auto* c = Live<mpidbg_reduce_op_record>(R->reduce_ops, U64(commuting)))
    RT_CHECK_EQ(c->commute, 1);
  else
    RT_CHECK(!"commutative op recorded");
  MPI_Op_free(&commuting);
  const uint64_t op_handle = U64(op);
  MPI_Op_free(&op);
  RT_CHECK(op == MPI_OP_NULL);
  const auto* oo = Newest<mpidbg_reduce_op_record>(R->reduce_ops, op_handle);
  RT_CHECK(oo != nullptr);
  if (oo != nullptr) {
    RT_CHECK_EQ(oo->obj.hdr.flags, MPIDBG_REC_FREED | MPIDBG_REC_RELEASED);
    RT_CHECK_EQ(oo->function, Fn(&MaxAbs));
  }
}

// ---------------------------------------------------------------------------------------

void CheckSessions() {
#if MPI_VERSION >= 4
  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, "mpi_thread_support_level", "MPI_THREAD_SINGLE");
  MPI_Session session;
  RT_CHECK_EQ(MPI_Session_init(info, MPI_ERRORS_RETURN, &session), MPI_SUCCESS);
  const auto* s = Live<mpidbg_session_record>(R->sessions, U64(session));
  RT_CHECK(s != nullptr);
  if (s != nullptr) {
    RT_CHECK_EQ(s->info, U64(info));
    RT_CHECK_EQ(s->errhandler, U64(MPI_ERRORS_RETURN));
    RT_CHECK_EQ(s->obj.creator, MPIDBG_CALL_MPI_Session_init);
    RT_CHECK_EQ(s->obj.fortran_index, MPI_Session_c2f(session));
    RT_CHECK(s->obj.create_time_ns > 0);
  }
  MPI_Group g;
  MPI_Group_from_session_pset(session, "mpi://WORLD", &g);
  if (const auto* r = CheckGroup(g, MPIDBG_CALL_MPI_Group_from_session_pset, "pset")) {
    RT_CHECK_STREQ(r->obj.name, "mpi://WORLD");
    RT_CHECK_EQ(r->source_handle, U64(session));
    RT_CHECK_EQ(r->size, 2);
    CHECK_INTS(r->world_ranks, 0, 1);
  }
  MPI_Comm comm;
  MPI_Comm_create_from_group(g, "org.mpidbg.objects_check", MPI_INFO_NULL, MPI_ERRORS_RETURN,
                             &comm);
  if (const auto* c = CheckNewComm(comm, MPIDBG_CALL_MPI_Comm_create_from_group, "from_group")) {
    RT_CHECK_EQ(c->parent_job_id, 0);
    RT_CHECK_EQ(c->errhandler, U64(MPI_ERRORS_RETURN));
  }
  MPI_Barrier(comm);
  MPI_Comm_free(&comm);
  MPI_Group_free(&g);
  const uint64_t handle = U64(session);
  RT_CHECK_EQ(MPI_Session_finalize(&session), MPI_SUCCESS);
  const auto* o = Newest<mpidbg_session_record>(R->sessions, handle);
  RT_CHECK(o != nullptr);
  if (o != nullptr) RT_CHECK_EQ(o->obj.hdr.flags, MPIDBG_REC_FREED | MPIDBG_REC_RELEASED);
  MPI_Info_free(&info);
#else
  RT_CHECK_EQ(R->sessions.live_count, 0u);  // no sessions in this MPI
#endif
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_size);
  g_other = 1 - g_rank;
  R = Root();
  if (R == nullptr || g_size != 2) {
    RT_CHECK(g_size == 2);
    MPI_Finalize();
    return Finish("objects_check");
  }
  RT_CHECK_EQ(R->orphan_budget, 4096u);  // the default
  const uint64_t generation = R->generation;

  CheckPredefined();
  CheckCommunicators();
  CheckGroups();
  CheckInfos();
  CheckErrhandlersAndOps();
  CheckSessions();

  RT_CHECK(R->generation > generation);
  RT_CHECK(R->orphan_count > 0);
  RT_CHECK_EQ(R->orphan_evictions, 0u);

  int failures = g_failures, total = 0;
  MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Finalize();
  return Finish("objects_check");
}

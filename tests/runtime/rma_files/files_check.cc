// files_check — file records and nonblocking file I/O requests, checked from inside
// the process (2 ranks, a file in /tmp; the runtime linked or LD_PRELOADed).
//
//  - MPI_File_open: communicator, filename, amode, info, errhandler, default view,
//    Fortran index; set_view, set_info, set_errhandler update the record;
//  - MPI_File_iread_at/iwrite: operation records (direction FILE, the file as object,
//    explicit offset, bytes) present before MPI_Wait and gone after;
//  - a collective read shown BLOCKED while it waits for the other rank;
//  - a derived type a view uses, freed: FREED but neither RELEASED nor evicted by the
//    orphan budget (MPIDBG_ORPHAN_BUDGET=4 here) until MPI_File_set_view changes the
//    view or MPI_File_close closes the file;
//  - MPI_File_close leaves an orphan.
// Usage: files_check <mpich|openmpi>. Exit status 0 = all passed.
#include <mpi.h>
#include <unistd.h>

#include <atomic>
#include <string>
#include <thread>

#include "rt_check.h"

using namespace rtcheck;

namespace {

using FileRec = mpidbg_file_record;
using TypeRec = mpidbg_datatype_record;

uint32_t FreedBits(const TypeRec* t) {
  return t->obj.hdr.flags & (MPIDBG_REC_FREED | MPIDBG_REC_RELEASED);
}

const FileRec* File(MPI_File f) { return FindObject<FileRec>(Root()->files, U64(f)); }

void CheckOpen(MPI_File fh, const std::string& path, int amode, MPI_Info info) {
  const FileRec* r = File(fh);
  RT_CHECK(r != nullptr);
  if (r == nullptr) return;
  RT_CHECK_EQ(r->obj.hdr.kind, MPIDBG_KIND_FILE);
  RT_CHECK_EQ(r->obj.creator, MPIDBG_CALL_MPI_File_open);
  RT_CHECK_EQ(r->obj.hdr.flags & (MPIDBG_REC_FREED | MPIDBG_REC_RELEASED | MPIDBG_REC_PREDEFINED), 0);
  RT_CHECK(r->obj.create_time_ns > 0);
  RT_CHECK_EQ(r->comm_handle, U64(MPI_COMM_WORLD));
  RT_CHECK(r->comm_job_id != 0);
  RT_CHECK_EQ(r->comm_job_id, CommJobId(U64(MPI_COMM_WORLD)));
  RT_CHECK_STREQ(r->filename, path.c_str());
  RT_CHECK_EQ(r->amode, amode);
  RT_CHECK_EQ(r->info, U64(info));
  RT_CHECK_EQ(r->obj.fortran_index, MPI_File_c2f(fh));
  MPI_Errhandler eh;
  MPI_File_get_errhandler(fh, &eh);
  RT_CHECK_EQ(r->errhandler, U64(eh));
  MPI_Errhandler_free(&eh);
  // The view a file starts with.
  RT_CHECK_EQ(r->view_disp, 0);
  RT_CHECK_EQ(r->etype, U64(MPI_BYTE));
  RT_CHECK_EQ(r->filetype, U64(MPI_BYTE));
  RT_CHECK_STREQ(r->datarep, "native");
}

// A filetype freed while the view uses it: MPI keeps it, so its record stays FREED only
// (not RELEASED, not evicted) through other datatype calls and frees beyond the orphan
// budget, until the next MPI_File_set_view lets go of it.
void CheckViewKeepsFiletype(MPI_File fh) {
  const mpidbg_table& types = Root()->datatypes;
  MPI_Datatype ft;
  MPI_Type_vector(2, 1, 2, MPI_INT, &ft);
  MPI_Type_commit(&ft);
  MPI_File_set_view(fh, 0, MPI_INT, ft, "native", MPI_INFO_NULL);
  const uint64_t handle = U64(ft);
  const TypeRec* t = FindObject<TypeRec>(types, handle);
  RT_CHECK(t != nullptr);
  if (t == nullptr) return;
  MPI_Type_free(&ft);
  RT_CHECK_EQ(FreedBits(t), MPIDBG_REC_FREED);
  const uint64_t evictions = Root()->orphan_evictions;
  for (int i = 0; i < 8; ++i) {
    MPI_Datatype tmp;
    MPI_Type_contiguous(i + 1, MPI_CHAR, &tmp);
    MPI_Type_free(&tmp);
  }
  RT_CHECK(Root()->orphan_evictions > evictions);
  RT_CHECK(FindObject<TypeRec>(types, handle, /*live_only=*/false) == t);
  RT_CHECK_EQ(FreedBits(t), MPIDBG_REC_FREED);
  // The view still reads through the freed type: ints 0 and 2 of rank 0's block.
  int got[2] = {-1, -1};
  MPI_File_read_at_all(fh, 0, got, 2, MPI_INT, MPI_STATUS_IGNORE);
  RT_CHECK(got[0] == 0 && got[1] == 2);
  RT_CHECK_EQ(FreedBits(t), MPIDBG_REC_FREED);
  MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL);
  RT_CHECK(FindObject<TypeRec>(types, handle, false) == t);
  RT_CHECK_EQ(FreedBits(t), MPIDBG_REC_FREED | MPIDBG_REC_RELEASED);
}

void CheckFiles(int rank) {
  // One name for both ranks: rank 0's pid.
  int pid = static_cast<int>(getpid());
  MPI_Bcast(&pid, 1, MPI_INT, 0, MPI_COMM_WORLD);
  const std::string path = "/tmp/mpidbg_files_check_" + std::to_string(pid) + ".dat";
  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, "access_style", "read_mostly");
  const int amode = MPI_MODE_CREATE | MPI_MODE_RDWR;
  MPI_File fh;
  if (MPI_File_open(MPI_COMM_WORLD, path.c_str(), amode, info, &fh) != MPI_SUCCESS) {
    RT_CHECK(!"MPI_File_open failed");
    return;
  }
  CheckOpen(fh, path, amode, info);
  const FileRec* r = File(fh);
  if (r == nullptr) return;

  // Each rank writes 8 ints at its own place.
  int data[8];
  for (int i = 0; i < 8; ++i) data[i] = rank * 100 + i;
  MPI_File_write_at_all(fh, rank * 8 * sizeof(int), data, 8, MPI_INT, MPI_STATUS_IGNORE);
  MPI_File_sync(fh);
  MPI_Barrier(MPI_COMM_WORLD);

  // Nonblocking read at an explicit offset: a operation record until MPI_Wait.
  int in[3] = {0, 0, 0};
  MPI_Request req;
  const MPI_Offset offset = (1 - rank) * 8 * sizeof(int) + sizeof(int);
  MPI_File_iread_at(fh, offset, in, 3, MPI_INT, &req);
  const uint64_t handle = U64(req);
  const mpidbg_operation_record* op = RequestOp(handle);
  RT_CHECK(op != nullptr);
  if (op != nullptr) {
    RT_CHECK_EQ(op->call, MPIDBG_CALL_MPI_File_iread_at);
    RT_CHECK_EQ(op->direction, MPIDBG_OPERATION_FILE);
    RT_CHECK_EQ(op->object, U64(fh));
    RT_CHECK_EQ(op->file_offset, offset);
    RT_CHECK_EQ(op->count, 3);
    RT_CHECK_EQ(op->bytes, 3 * sizeof(int));
    RT_CHECK_EQ(op->datatype, U64(MPI_INT));
    RT_CHECK_EQ(op->buffer, Addr(in));
    RT_CHECK_EQ(op->comm_handle, U64(MPI_COMM_WORLD));
    RT_CHECK_EQ(op->comm_job_id, CommJobId(U64(MPI_COMM_WORLD)));
  }
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  RT_CHECK(RequestOp(handle) == nullptr);
  const int other = 1 - rank;
  RT_CHECK(in[0] == other * 100 + 1 && in[1] == other * 100 + 2 && in[2] == other * 100 + 3);

  // A view of every other int after 16 bytes: the record follows.
  MPI_Datatype every_other;
  MPI_Type_vector(2, 1, 2, MPI_INT, &every_other);
  MPI_Type_commit(&every_other);
  MPI_File_set_view(fh, 16, MPI_INT, every_other, "native", MPI_INFO_NULL);
  RT_CHECK_EQ(r->view_disp, 16);
  RT_CHECK_EQ(r->etype, U64(MPI_INT));
  RT_CHECK_EQ(r->filetype, U64(every_other));
  RT_CHECK_STREQ(r->datarep, "native");
  RT_CHECK_EQ(r->info, U64(info));  // set_view without hints keeps them

  // Nonblocking write through the view, no explicit offset.
  int out = 7;
  if (rank == 0) {
    MPI_File_iwrite(fh, &out, 1, MPI_INT, &req);
    const uint64_t whandle = U64(req);
    op = RequestOp(whandle);
    RT_CHECK(op != nullptr);
    if (op != nullptr) {
      RT_CHECK_EQ(op->call, MPIDBG_CALL_MPI_File_iwrite);
      RT_CHECK_EQ(op->direction, MPIDBG_OPERATION_FILE);
      RT_CHECK_EQ(op->file_offset, -1);
      RT_CHECK_EQ(op->bytes, sizeof(int));
    }
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    RT_CHECK(RequestOp(whandle) == nullptr);
  }
  MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL);
  RT_CHECK_EQ(r->etype, U64(MPI_BYTE));
  MPI_Type_free(&every_other);

  // A collective read waits for the other rank: BLOCKED meanwhile.
  int all[16];
  if (rank == 1) {
    usleep(300 * 1000);
    MPI_File_read_at_all(fh, 0, all, 16, MPI_INT, MPI_STATUS_IGNORE);
  } else {
    std::atomic<bool> seen{false};
    std::thread watcher(
        [&] { seen = SeenBlocked(MPIDBG_CALL_MPI_File_read_at_all, U64(MPI_COMM_WORLD), 5.0); });
    MPI_File_read_at_all(fh, 0, all, 16, MPI_INT, MPI_STATUS_IGNORE);
    watcher.join();
    RT_CHECK(seen.load());
  }
  RT_CHECK_EQ(all[9], 101);
  CheckViewKeepsFiletype(fh);

  MPI_File_set_errhandler(fh, MPI_ERRORS_ARE_FATAL);
  RT_CHECK_EQ(r->errhandler, U64(MPI_ERRORS_ARE_FATAL));
  MPI_Info hints;
  MPI_Info_create(&hints);
  MPI_Info_set(hints, "access_style", "write_once");
  MPI_File_set_info(fh, hints);
  RT_CHECK_EQ(r->info, U64(hints));

  // A derived etype and filetype freed under the view are kept until the close.
  MPI_Datatype pair;
  MPI_Type_contiguous(2, MPI_INT, &pair);
  MPI_Type_commit(&pair);
  MPI_File_set_view(fh, 0, pair, pair, "native", MPI_INFO_NULL);
  RT_CHECK_EQ(r->etype, U64(pair));
  RT_CHECK_EQ(r->filetype, U64(pair));
  const uint64_t pair_handle = U64(pair);
  const TypeRec* pr = FindObject<TypeRec>(Root()->datatypes, pair_handle);
  RT_CHECK(pr != nullptr);
  MPI_Type_free(&pair);
  MPI_Datatype probe;  // another datatype call looks again
  MPI_Type_dup(MPI_INT, &probe);
  MPI_Type_free(&probe);
  if (pr != nullptr) RT_CHECK_EQ(FreedBits(pr), MPIDBG_REC_FREED);

  // Closing leaves an orphan, and lets go of the view's types.
  const uint64_t fh_handle = U64(fh);
  MPI_File_close(&fh);
  if (pr != nullptr) {
    RT_CHECK(FindObject<TypeRec>(Root()->datatypes, pair_handle, false) == pr);
    RT_CHECK_EQ(FreedBits(pr), MPIDBG_REC_FREED | MPIDBG_REC_RELEASED);
  }
  RT_CHECK(FindObject<FileRec>(Root()->files, fh_handle) == nullptr);
  const FileRec* gone = FindObject<FileRec>(Root()->files, fh_handle, /*live_only=*/false);
  RT_CHECK(gone == r);
  if (gone != nullptr) {
    RT_CHECK_EQ(gone->obj.hdr.flags & (MPIDBG_REC_FREED | MPIDBG_REC_RELEASED),
                MPIDBG_REC_FREED | MPIDBG_REC_RELEASED);
    RT_CHECK(gone->obj.free_serial != 0);
    RT_CHECK_STREQ(gone->filename, path.c_str());
  }
  MPI_Info_free(&hints);
  MPI_Info_free(&info);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) MPI_File_delete(path.c_str(), MPI_INFO_NULL);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 2) {
    fprintf(stderr, "files_check needs 2 ranks: FAIL\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  if (Root() != nullptr) CheckFiles(g_rank);
  int rc = Finish(argc > 1 ? argv[1] : "files_check");
  MPI_Finalize();
  return rc;
}

// fortran_convert.h — the C view of a Fortran MPI call's arguments, for the hooks.
//
// A Fortran wrapper (generated into fortran_wrappers.cc) hands the library's Fortran
// entry point the caller's arguments untouched and gives the hooks what a C wrapper
// would: C handles (PMPI_*_f2c), C statuses, C strings, the C sentinels MPI_IN_PLACE and
// MPI_BOTTOM. Everything here is inline and allocation-free for the usual sizes (the
// wrappers are on the hot path); arrays longer than kFortranInline go to the heap through
// cold code in fortran_convert.cc.
//
// Layout facts relied on, true of both MPIs on LP64 and checked where a compiler can:
// MPI_Fint is int; a Fortran status (an INTEGER(MPI_STATUS_SIZE) array, or an mpi_f08
// TYPE(MPI_Status)) is sizeof(MPI_Status) bytes of MPI_Fint; an mpi_f08 handle
// TYPE(MPI_Comm) etc. is one INTEGER, so a reference to it is an MPI_Fint*; a gfortran
// array descriptor (the `f08ts` entry points' choice buffers) starts with the base address.
#ifndef MPIDBG_RT_FORTRAN_FORTRAN_CONVERT_H
#define MPIDBG_RT_FORTRAN_FORTRAN_CONVERT_H

#include <mpi.h>
#include <stddef.h>
#include <string.h>

namespace mpidbg::rt {

static_assert(sizeof(MPI_Fint) == sizeof(int), "Fortran INTEGER arrays are passed as int arrays");
static_assert(sizeof(MPI_Status) % sizeof(MPI_Fint) == 0, "a Fortran status is whole MPI_Fints");
constexpr int kFortranStatusInts = sizeof(MPI_Status) / sizeof(MPI_Fint);
constexpr int kFortranInline = 16;

// The Fortran sentinels of either binding of this MPI, by kind.
enum FortranSentinel { kFortranInPlace, kFortranBottom, kFortranStatusIgnore,
                       kFortranStatusesIgnore, kFortranSentinelKinds };
bool IsFortranSentinel(FortranSentinel kind, const void* p);

// A choice buffer as C sees it: the Fortran MPI_IN_PLACE and MPI_BOTTOM become C's.
inline void* FortranBuffer(void* f) {
  if (IsFortranSentinel(kFortranInPlace, f)) return MPI_IN_PLACE;
  if (IsFortranSentinel(kFortranBottom, f)) return MPI_BOTTOM;
  return f;
}
// The base address of a gfortran array descriptor (mpi_f08 `ts` entry points).
inline void* DescriptorBase(void* desc) { return desc == nullptr ? nullptr : *static_cast<void**>(desc); }

// Cold: heap storage for arrays longer than kFortranInline (fortran_convert.cc).
void* FortranHeapAlloc(size_t bytes);
void FortranHeapFree(void* p);

// `n` elements of T, inline when few. T is trivially copyable (handles, statuses, ints).
template <typename T>
class FortranArray {
 public:
  explicit FortranArray(int n) : n_(n < 0 ? 0 : n) {
    data_ = n_ <= kFortranInline ? inline_ : static_cast<T*>(FortranHeapAlloc(sizeof(T) * n_));
  }
  ~FortranArray() {
    if (data_ != inline_) FortranHeapFree(data_);
  }
  FortranArray(const FortranArray&) = delete;
  FortranArray& operator=(const FortranArray&) = delete;
  T* data() { return data_; }
  int size() const { return n_; }

 private:
  int n_;
  T* data_;
  T inline_[kFortranInline];
};

// One status parameter. The library gets the caller's status, or one of the runtime's
// when the caller passed MPI_STATUS_IGNORE (as the C hooks substitute the thread's own),
// so the hooks always have the status; the caller sees no difference.
class FortranStatus {
 public:
  explicit FortranStatus(MPI_Fint* f) : f_(f) {
    if (IsFortranSentinel(kFortranStatusIgnore, f)) {
      memset(own_, 0, sizeof own_);
      f_ = own_;
    }
    memset(&c_, 0, sizeof c_);
  }
  MPI_Fint* fortran() { return f_; }
  MPI_Status* c() { return &c_; }
  void ToC() { PMPI_Status_f2c(f_, &c_); }

 private:
  MPI_Fint* f_;
  MPI_Fint own_[kFortranStatusInts];
  MPI_Status c_;
};

// An array of `n` statuses, likewise (MPI_STATUSES_IGNORE replaced by the runtime's).
class FortranStatuses {
 public:
  FortranStatuses(MPI_Fint* f, int n)
      : ignored_(IsFortranSentinel(kFortranStatusesIgnore, f)),
        c_(n),
        own_(ignored_ ? c_.size() * kFortranStatusInts : 0),
        f_(ignored_ ? own_.data() : f) {
    if (ignored_) memset(own_.data(), 0, sizeof(MPI_Fint) * own_.size());
    memset(c_.data(), 0, sizeof(MPI_Status) * c_.size());
  }
  MPI_Fint* fortran() { return f_; }
  MPI_Status* c() { return c_.data(); }
  void ToC() {
    for (int i = 0; i < c_.size(); ++i) PMPI_Status_f2c(f_ + i * kFortranStatusInts, &c_.data()[i]);
  }

 private:
  bool ignored_;
  FortranArray<MPI_Status> c_;
  FortranArray<MPI_Fint> own_;
  MPI_Fint* f_;
};

// A Fortran CHARACTER argument (no terminator; blank-padded to its hidden length) as a
// C string, trailing blanks removed as MPI's Fortran bindings do.
class FortranString {
 public:
  FortranString(const char* f, size_t len);
  ~FortranString();
  FortranString(const FortranString&) = delete;
  FortranString& operator=(const FortranString&) = delete;
  const char* c_str() const { return s_; }

 private:
  char* s_;
  char inline_[128];
};

// The new communicator of an MPI_Comm_idup, which the runtime's hooks read when the
// request completes, after the wrapper has returned, so the C view must outlive the
// call. MPICH: a Fortran handle is the C handle (MPI_Comm_f2c is a cast), so the view is
// the program's own variable, whenever MPI writes it. Other MPIs (Open MPI) write the
// handle during the call; the view is a cell holding its C form, kept for the life of
// the process (a few bytes per MPI_Comm_idup: the wrapper does not see the completion).
inline MPI_Comm* FortranLaterComm(MPI_Fint* f) {
#if defined(MPICH_VERSION)
  static_assert(sizeof(MPI_Comm) == sizeof(MPI_Fint), "MPICH handles are Fortran integers");
  return reinterpret_cast<MPI_Comm*>(f);
#else
  (void)f;
  MPI_Comm* cell = static_cast<MPI_Comm*>(FortranHeapAlloc(sizeof(MPI_Comm)));
  *cell = MPI_COMM_NULL;
  return cell;
#endif
}
// After the call: the cell gets the handle MPI wrote (nothing to do where the view is
// the program's variable).
inline void FortranLaterCommWritten(MPI_Comm* view, const MPI_Fint* f) {
#if defined(MPICH_VERSION)
  (void)view;
  (void)f;
#else
  *view = PMPI_Comm_f2c(*f);
#endif
}

// How many processes an MPI_Alltoallw-style call has one entry per: the remote group's
// size on an intercommunicator, the group's otherwise (cold, fortran_convert.cc).
int FortranPeerCount(MPI_Comm comm);

// An index (MPI_Waitany, MPI_Testany, MPI_Waitsome, MPI_Testsome) as C counts it:
// Fortran's are one higher, MPI_UNDEFINED stays.
inline int FortranIndexToC(MPI_Fint f) { return f == MPI_UNDEFINED ? MPI_UNDEFINED : f - 1; }

// The same for the mpi_f08 entry points. MPICH before 4.1 returns C's indices there
// (measured with 4.0.2: the first request of two completing gives index 0; MPICH issue
// 6270, fixed in 4.1), so its runtime must not subtract one.
inline int F08IndexToC(MPI_Fint f) {
#if defined(MPICH_NUMVERSION) && MPICH_NUMVERSION < 40100000
  return f;
#else
  return FortranIndexToC(f);
#endif
}

}  // namespace mpidbg::rt

#endif  // MPIDBG_RT_FORTRAN_FORTRAN_CONVERT_H

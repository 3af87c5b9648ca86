! fortran_ssend_cycle — ssend_cycle.c in Fortran: every rank sends synchronously to the
! next rank before receiving from the previous one, a cycle of waits 0->1->...->0.
! Built per Fortran binding: with -DUSE_MPIF_H (include 'mpif.h'), or -DUSE_MPI_F08
! (use mpi_f08); the runtime must show the same job as for the C program.
program fortran_ssend_cycle
#ifdef USE_MPI_F08
  use mpi_f08
#endif
  implicit none
#ifdef USE_MPIF_H
  include 'mpif.h'
#endif
  integer :: rank, size, out(16), in(16)
#ifdef USE_MPI_F08
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, size)
#else
  integer :: ierr
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, size, ierr)
#endif
  out = rank
  ! The ready line of scenario_common.h.
  write (*, '(a,i0,a)') 'rank ', rank, ' ready'
  flush (6)
#ifdef USE_MPI_F08
  call MPI_Ssend(out, 16, MPI_INTEGER, mod(rank + 1, size), 42, MPI_COMM_WORLD)
  call MPI_Recv(in, 16, MPI_INTEGER, mod(rank + size - 1, size), 42, MPI_COMM_WORLD, &
                MPI_STATUS_IGNORE)
  call MPI_Finalize()
#else
  call MPI_Ssend(out, 16, MPI_INTEGER, mod(rank + 1, size), 42, MPI_COMM_WORLD, ierr)
  call MPI_Recv(in, 16, MPI_INTEGER, mod(rank + size - 1, size), 42, MPI_COMM_WORLD, &
                MPI_STATUS_IGNORE, ierr)
  call MPI_Finalize(ierr)
#endif
end program fortran_ssend_cycle

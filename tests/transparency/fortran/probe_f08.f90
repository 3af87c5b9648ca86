! probe_f08.f90 — which MPI calls of a Fortran program the runtime sees, through the
! `use mpi_f08` bindings. Each call is bracketed by tp_rt_begin/tp_rt_end
! (probe_helper.c), which print whether the runtime counted it. Rank 0 reports; run
! with 2 ranks.
program probe_f08
  use, intrinsic :: iso_c_binding
  use mpi_f08
  implicit none
  include 'probe_helper.inc'

  integer :: rank, size, peer, total, one, idx, outcount, indices(2)
  logical :: flag
  type(MPI_Comm) :: newcomm, dupcomm, idupcomm
  type(MPI_Datatype) :: vtype
  type(MPI_Group) :: group, subgroup
  type(MPI_Info) :: info
  type(MPI_Request) :: req, reqs(2)
  type(MPI_Status) :: status, statuses(2)
  integer :: sbuf(4), rbuf(4), ranks(1), gbuf(8)

  call tp_rt_begin()
  call MPI_Init()
  call probe_done('MPI_Init')
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, size)
  peer = 1 - rank
  call tp_rt_state()
  sbuf = (/ 1, 2, 3, 4 /)

  call tp_rt_begin()
  if (rank == 0) then
    call MPI_Send(sbuf, 4, MPI_INTEGER, peer, 1, MPI_COMM_WORLD)
  else
    call MPI_Recv(rbuf, 4, MPI_INTEGER, peer, 1, MPI_COMM_WORLD, status)
  end if
  call probe_done('MPI_Send')
  call tp_rt_begin()
  if (rank == 0) then
    call MPI_Recv(rbuf, 4, MPI_INTEGER, peer, 2, MPI_COMM_WORLD, status)
  else
    call MPI_Send(sbuf, 4, MPI_INTEGER, peer, 2, MPI_COMM_WORLD)
  end if
  call probe_done('MPI_Recv')
  call tp_rt_begin()
  call MPI_Irecv(rbuf, 4, MPI_INTEGER, peer, 3, MPI_COMM_WORLD, reqs(1))
  call probe_done('MPI_Irecv')
  call tp_rt_begin()
  call MPI_Isend(sbuf, 4, MPI_INTEGER, peer, 3, MPI_COMM_WORLD, reqs(2))
  call probe_done('MPI_Isend')
  call tp_rt_begin()
  call MPI_Waitall(2, reqs, statuses)
  call probe_done('MPI_Waitall')
  call MPI_Isend(sbuf, 4, MPI_INTEGER, peer, 4, MPI_COMM_WORLD, req)
  call MPI_Recv(rbuf, 4, MPI_INTEGER, peer, 4, MPI_COMM_WORLD, status)
  call tp_rt_begin()
  call MPI_Wait(req, status)
  call probe_done('MPI_Wait')
  call tp_rt_begin()
  call MPI_Test(req, flag, status)
  call probe_done('MPI_Test')
  call tp_rt_begin()
  call MPI_Sendrecv(sbuf, 4, MPI_INTEGER, peer, 5, rbuf, 4, MPI_INTEGER, peer, 5, &
                    MPI_COMM_WORLD, status)
  call probe_done('MPI_Sendrecv')

  ! Blocked in Fortran calls, as a debugger sees it: another thread reads this
  ! thread's record while the peer is late (rank 1 sleeps before it sends).
  call tp_rt_watch('MPI_Recv' // c_null_char)
  if (rank == 0) then
    call MPI_Recv(rbuf, 4, MPI_INTEGER, peer, 11, MPI_COMM_WORLD, status)
  else
    call tp_rt_delay(300)
    call MPI_Send(sbuf, 4, MPI_INTEGER, peer, 11, MPI_COMM_WORLD)
  end if
  call tp_rt_watched()
  call MPI_Irecv(rbuf, 4, MPI_INTEGER, peer, 12, MPI_COMM_WORLD, reqs(1))
  if (rank == 1) call tp_rt_delay(300)
  call MPI_Isend(sbuf, 4, MPI_INTEGER, peer, 12, MPI_COMM_WORLD, reqs(2))
  call tp_rt_watch('MPI_Waitall' // c_null_char)
  call MPI_Waitall(2, reqs, statuses)
  call tp_rt_watched()

  ! MPI_IN_PLACE at the root of a gather: the record must show the receive count
  ! (4), which is what counts there, not the ignored send count (0).
  if (rank == 0) then
    call tp_rt_watch('MPI_Gather' // c_null_char)
    gbuf(1:4) = sbuf
    call MPI_Gather(MPI_IN_PLACE, 0, MPI_INTEGER, gbuf, 4, MPI_INTEGER, 0, MPI_COMM_WORLD)
    call tp_rt_watched()
  else
    call tp_rt_delay(300)
    call MPI_Gather(sbuf, 4, MPI_INTEGER, gbuf, 4, MPI_INTEGER, 0, MPI_COMM_WORLD)
  end if

  ! Completion by index (a Fortran index is one higher than C's): a request the
  ! runtime retired under the wrong index would stay behind as a live record.
  call MPI_Irecv(rbuf, 4, MPI_INTEGER, peer, 6, MPI_COMM_WORLD, reqs(1))
  call MPI_Isend(sbuf, 4, MPI_INTEGER, peer, 6, MPI_COMM_WORLD, reqs(2))
  call tp_rt_begin()
  call MPI_Waitany(2, reqs, idx, status)
  call probe_done('MPI_Waitany')
  call MPI_Waitany(2, reqs, idx, status)
  call tp_rt_live('MPI_Waitany' // c_null_char)
  call MPI_Irecv(rbuf, 4, MPI_INTEGER, peer, 7, MPI_COMM_WORLD, reqs(1))
  call MPI_Isend(sbuf, 4, MPI_INTEGER, peer, 7, MPI_COMM_WORLD, reqs(2))
  call tp_rt_begin()
  call MPI_Waitsome(2, reqs, outcount, indices, statuses)
  call probe_done('MPI_Waitsome')
  do while (any(reqs /= MPI_REQUEST_NULL))
    call MPI_Waitsome(2, reqs, outcount, indices, statuses)
  end do
  call tp_rt_live('MPI_Waitsome' // c_null_char)
  ! The Fortran sentinels, which the runtime must tell from buffers and statuses.
  call MPI_Irecv(rbuf, 4, MPI_INTEGER, peer, 8, MPI_COMM_WORLD, reqs(1))
  call MPI_Isend(sbuf, 4, MPI_INTEGER, peer, 8, MPI_COMM_WORLD, reqs(2))
  call tp_rt_begin()
  call MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE)
  call probe_done('MPI_Waitall:STATUSES_IGNORE')
  call tp_rt_begin()
  call MPI_Sendrecv(sbuf, 4, MPI_INTEGER, peer, 9, rbuf, 4, MPI_INTEGER, peer, 9, &
                    MPI_COMM_WORLD, MPI_STATUS_IGNORE)
  call probe_done('MPI_Sendrecv:STATUS_IGNORE')
  ! Wildcard receives are counted under their source from the status, also when
  ! the program ignores it (the runtime then has the library fill one of its own).
  if (rank == 0) then
    call MPI_Recv(rbuf, 4, MPI_INTEGER, MPI_ANY_SOURCE, 13, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
    call MPI_Irecv(rbuf, 4, MPI_INTEGER, MPI_ANY_SOURCE, 14, MPI_COMM_WORLD, reqs(1))
    call MPI_Irecv(sbuf, 4, MPI_INTEGER, MPI_ANY_SOURCE, 15, MPI_COMM_WORLD, reqs(2))
    call MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE)
    call MPI_Recv(rbuf, 4, MPI_INTEGER, MPI_ANY_SOURCE, 16, MPI_COMM_WORLD, status)
    call tp_rt_received(13)
    call tp_rt_received(14)
    call tp_rt_received(16)
    sbuf = (/ 1, 2, 3, 4 /)
  else
    call MPI_Send(sbuf, 4, MPI_INTEGER, peer, 13, MPI_COMM_WORLD)
    call MPI_Send(sbuf, 4, MPI_INTEGER, peer, 14, MPI_COMM_WORLD)
    call MPI_Send(sbuf, 4, MPI_INTEGER, peer, 15, MPI_COMM_WORLD)
    call MPI_Send(sbuf, 4, MPI_INTEGER, peer, 16, MPI_COMM_WORLD)
  end if
  ! Persistent requests.
  call tp_rt_begin()
  call MPI_Recv_init(rbuf, 4, MPI_INTEGER, peer, 10, MPI_COMM_WORLD, reqs(1))
  call probe_done('MPI_Recv_init')
  call tp_rt_begin()
  call MPI_Send_init(sbuf, 4, MPI_INTEGER, peer, 10, MPI_COMM_WORLD, reqs(2))
  call probe_done('MPI_Send_init')
  call tp_rt_begin()
  call MPI_Startall(2, reqs)
  call probe_done('MPI_Startall')
  call MPI_Waitall(2, reqs, statuses)
  call tp_rt_begin()
  call MPI_Request_free(reqs(1))
  call probe_done('MPI_Request_free')
  call MPI_Request_free(reqs(2))

  call tp_rt_begin()
  call MPI_Barrier(MPI_COMM_WORLD)
  call probe_done('MPI_Barrier')
  call tp_rt_begin()
  call MPI_Bcast(sbuf, 4, MPI_INTEGER, 0, MPI_COMM_WORLD)
  call probe_done('MPI_Bcast')
  one = 1
  call tp_rt_begin()
  call MPI_Allreduce(one, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  call probe_done('MPI_Allreduce')
  total = 1
  call tp_rt_begin()
  call MPI_Allreduce(MPI_IN_PLACE, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  call probe_done('MPI_Allreduce:IN_PLACE')
  if (total /= 2) error stop 'MPI_Allreduce with MPI_IN_PLACE gave a wrong sum'
  call tp_rt_begin()
  call MPI_Ibarrier(MPI_COMM_WORLD, req)
  call MPI_Wait(req, status)
  call probe_done('MPI_Ibarrier')

  call tp_rt_begin()
  call MPI_Comm_split(MPI_COMM_WORLD, 0, rank, newcomm)
  call probe_done('MPI_Comm_split')
  call tp_rt_findex(1, newcomm%MPI_VAL)
  call tp_rt_begin()
  call MPI_Comm_dup(newcomm, dupcomm)
  call probe_done('MPI_Comm_dup')
  call tp_rt_begin()
  call MPI_Comm_set_name(dupcomm, 'probe')
  call probe_done('MPI_Comm_set_name')
  call tp_rt_begin()
  call MPI_Comm_free(dupcomm)
  call probe_done('MPI_Comm_free')
  call MPI_Comm_free(newcomm)
  ! A nonblocking duplicate: its record appears when the request completes, long
  ! after the Fortran wrapper of MPI_Comm_idup returned.
  call tp_rt_begin()
  call MPI_Comm_idup(MPI_COMM_WORLD, idupcomm, req)
  call probe_done('MPI_Comm_idup')
  call MPI_Wait(req, status)
  call tp_rt_findex(4, idupcomm%MPI_VAL)
  call MPI_Comm_free(idupcomm)

  call tp_rt_begin()
  call MPI_Comm_group(MPI_COMM_WORLD, group)
  call probe_done('MPI_Comm_group')
  ranks(1) = 0
  call tp_rt_begin()
  call MPI_Group_incl(group, 1, ranks, subgroup)
  call probe_done('MPI_Group_incl')
  call tp_rt_findex(3, subgroup%MPI_VAL)
  call tp_rt_begin()
  call MPI_Group_free(subgroup)
  call probe_done('MPI_Group_free')
  call MPI_Group_free(group)

  call tp_rt_begin()
  call MPI_Type_vector(2, 1, 2, MPI_INTEGER, vtype)
  call probe_done('MPI_Type_vector')
  call tp_rt_begin()
  call MPI_Type_commit(vtype)
  call probe_done('MPI_Type_commit')
  call tp_rt_findex(2, vtype%MPI_VAL)
  call tp_rt_begin()
  call MPI_Type_free(vtype)
  call probe_done('MPI_Type_free')

  call tp_rt_begin()
  call MPI_Info_create(info)
  call probe_done('MPI_Info_create')
  call tp_rt_begin()
  call MPI_Info_free(info)
  call probe_done('MPI_Info_free')

  ! A receive posted before a pause and collected while paused: the paused MPI_Wait
  ! that names it is still recorded, so it does not stay pending.
  call MPI_Irecv(rbuf, 4, MPI_INTEGER, peer, 17, MPI_COMM_WORLD, req)
  call tp_rt_pause()
  call MPI_Send(sbuf, 4, MPI_INTEGER, peer, 17, MPI_COMM_WORLD)
  call MPI_Wait(req, status)
  call tp_rt_resume()
  call tp_rt_pending(17)

  call tp_rt_begin()
  call MPI_Finalize()
  call probe_done('MPI_Finalize')
  call tp_rt_state()

contains

  subroutine probe_done(name)
    character(len=*), intent(in) :: name
    call tp_rt_end(name // c_null_char)
  end subroutine

end program probe_f08

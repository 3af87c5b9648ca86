"""What gdb must show for rank 1 of a 4-rank testapps/gdb_handles job.

Rank 1 is odd: its split is "odds" = world ranks 1 and 3 (rank 0 in it); it sends tag
200 to rank 2 on MPI_COMM_WORLD and receives tag 300 from rank 2 on "dup_of_world".
"""

import os

SOURCE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "testapps",
                      "gdb_handles.c")


def source_line(text):
    """The line of testapps/gdb_handles.c holding `text` (found here, not by mpidbg)."""
    with open(SOURCE) as f:
        for number, line in enumerate(f, 1):
            if text in line:
                return number
    raise LookupError("%s not in %s" % (text, SOURCE))


def common_steps(flavour):
    """(section, gdb command) run on the live process and on the core alike."""
    # A plain number with -kind: MPICH's int handle zero-extended, Open MPI's address.
    number = "(unsigned)split_comm" if flavour == "mpich" else "(unsigned long)split_comm"
    return [
        ("queues", "mpi queues"),
        ("threads", "mpi threads"),
        ("info", "mpi info"),
        ("orphans", "mpi orphans"),
        ("objects", "mpi objects comm"),
        ("objects_freed", "mpi objects -freed"),
        ("handle_dtype", "mpi handle vector_type"),
        ("handle_kind", "mpi handle -kind comm " + number),
        ("p_split", "print split_comm"),
        ("p_world", "print world_comm"),
        ("p_dup", "print dup_comm"),
        ("p_freed", "print freed_comm_copy"),
        ("p_dtype", "print vector_type"),
        ("p_group", "print split_group"),
        ("p_op", "print sum_op"),
        ("p_errh", "print comm_errhandler"),
        ("p_info", "print win_info"),
        ("p_win", "print window"),
        ("p_status", "print self_status"),
        ("p_send", "print pending_send"),
        ("p_recv", "print pending_recv"),
        ("p_array", "print/r split_comm"),
    ]


def common(flavour, source):
    launcher = "hydra" if flavour == "mpich" else "(orte|prrte)"
    return {
        "queues": [
            r"^process \d+, rank 1 of 4, .*\(%s\)$" % source,
            r'^communicator "MPI_COMM_WORLD" size=4 rank=1 \[world 0-3\]',
            r'^communicator "odds" size=2 rank=0 \[world 1,3\] \(from MPI_Comm_split',
            r'^communicator "dup_of_world" size=4 rank=1 \[world 0-3\] \(from MPI_Comm_dup',
            r"^    MPI_Issend\(dest=2, tag=200, comm=MPI_COMM_WORLD\) 40 bytes MPI_INT x10, "
            r"pending, synchronous",
            r"^    MPI_Irecv\(source=2, tag=300, comm=dup_of_world\) 40 bytes MPI_INT x10, "
            r"pending",
        ],
        # The main thread; one that paused the runtime's recording outside MPI; one that
        # paused and waits for a receive it posted before: a call recorded despite it.
        "threads": [r"^threads: 3$", r"not in MPI",
                    r"recording paused by the program: its MPI calls are not recorded "
                    r"\(0 recorded so far\); see its stack",
                    r"blocked in MPI_Wait.* \(recording paused by the program; this call "
                    r"recorded despite it\)$",
                    r"^      waits for MPI_Irecv\(source=0 \[world 1\], tag=400, "
                    r"comm=MPI_COMM_SELF\) 4 bytes MPI_INT x1, pending"],
        "info": [
            r"^launcher: %s" % launcher,
            r"rank 1 of 4 \(MPI rank 1\)",
            r"^MPI_T: \d+ control variables",
        ],
        "orphans": [
            r"^orphans: 1 kept \(budget \d+\), 0 evicted, 0 released$",
            r"^  comm: 1$",
            r'^    comm 0x[0-9a-f]+ "scratch" \(MPI_Comm_dup\): intra, rank 1 of 4, FREED',
            r"^  datatype: none$",
        ],
        "objects": [
            r"^\d+ MPI objects$",
            r"^comm:$",
            r"^  0x[0-9a-f]+ MPI_COMM_WORLD  predefined$",
            r"^  0x[0-9a-f]+ dup_of_world  live  created by MPI_Comm_dup at gdb_handles\.c:%d "
            r"in main, [0-9.]+ s ago$" % source_line("MPI_Comm_dup(MPI_COMM_WORLD, &dup_comm);"),
            r"^  0x[0-9a-f]+ odds  live  created by MPI_Comm_split at gdb_handles\.c:%d in main"
            % source_line("MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &split_comm);"),
        ],
        "objects_freed": [
            r"^1 MPI object$",
            r"^comm:$",
            r"^  0x[0-9a-f]+ scratch  (freed|released)  created by MPI_Comm_dup at gdb_handles\.c:%d in main"
            % source_line("MPI_Comm_dup(MPI_COMM_WORLD, &scratch);"),
        ],
        # `mpi handle` prints `mpidbg handle`'s text (the same describer).
        "handle_dtype": [
            r'^vector_type = datatype 0x[0-9a-f]+ "three_pairs" \(MPI_Type_vector\): vector, '
            r'size 24, extent 40 \(lb 0\), committed',
            r"^  type map: 3 runs, 6 elements",
            r"^    \+16 MPI_INT x2$",
            r"^    \+32 MPI_INT x2$",
        ],
        "handle_kind": [r'^\(unsigned( long)?\)split_comm = comm 0x[0-9a-f]+ "odds" '
                        r'\(MPI_Comm_split\): intra, rank 0 of 2',
                        r"^  world ranks: 1,3$"],
        # Printers: the describer's summary line, its fields as children.
        "p_split": [r'^\$\d+ = comm 0x[0-9a-f]+ "odds" \(MPI_Comm_split\): intra, rank 0 of 2 = '
                    r'\{name = "odds", size = 2, rank = 0, world_ranks = \{1, 3\}, intercomm = 0, '
                    r'.*creator = "MPI_Comm_split", predefined = 0, freed = 0, freed_object = 0\}$'],
        "p_world": [r'^\$\d+ = comm 0x[0-9a-f]+ "MPI_COMM_WORLD": intra, rank 1 of 4, predefined = '
                    r'\{name = "MPI_COMM_WORLD", size = 4, rank = 1, world_ranks = \{0, 1, 2, 3\}'],
        "p_dup": [r'^\$\d+ = comm 0x[0-9a-f]+ "dup_of_world" \(MPI_Comm_dup\): intra, rank 1 of 4 '],
        "p_freed": [r'^\$\d+ = comm 0x[0-9a-f]+ "scratch" \(MPI_Comm_dup\): intra, rank 1 of 4, '
                    r'FREED .*freed = 1'],
        "p_dtype": [r'^\$\d+ = datatype 0x[0-9a-f]+ "three_pairs" \(MPI_Type_vector\): vector, '
                    r'size 24, extent 40 \(lb 0\), committed = \{name = "three_pairs", combiner = '
                    r'"vector", size = 24, extent = 40, lb = 0, committed = 1, .*type_map = '
                    r'\{"MPI_INT x2 @0", "MPI_INT x2 @16", "MPI_INT x2 @32"\}, .*creator = '
                    r'"MPI_Type_vector", predefined = 0, freed = 0'],
        "p_group": [r"^\$\d+ = group 0x[0-9a-f]+ \(MPI_Comm_group\): size 2, rank 0 = \{size = 2, "
                    r"rank = 0, world_ranks = \{1, 3\}, .*creator = \"MPI_Comm_group\", "
                    r"predefined = 0, freed = 0"],
        "p_op": [r"^\$\d+ = op 0x[0-9a-f]+: commutative, function 0x[0-9a-f]+ = \{commutative = 1, "
                 r"callback = 0x[0-9a-f]+ <int_sum>"],
        "p_errh": [r"^\$\d+ = errhandler 0x[0-9a-f]+: for comm, function 0x[0-9a-f]+"],
        "p_info": [r'^\$\d+ = info 0x[0-9a-f]+: 2 keys = \{.*gdb_key = "gdb_value".*keys = 2, '
                   r'.*freed = 0'],
        "p_win": [r'^\$\d+ = win 0x[0-9a-f]+ "gdb_win": create, 256 bytes at 0x[0-9a-f]+, '
                  r'disp_unit 4 = \{name = "gdb_win", flavor = "create", size = 256, .*comm_size = 4'],
        "p_status": [r"^\$\d+ = status at 0x[0-9a-f]+: source 0, tag 7, error 0, 20 bytes"],
        "p_send": [r"^\$\d+ = request 0x[0-9a-f]+ \(MPI_Issend\): send to 2, tag 200, 40 bytes on "
                   r"MPI_COMM_WORLD, pending"],
        "p_recv": [r"^\$\d+ = request 0x[0-9a-f]+ \(MPI_Irecv\): receive from 2, tag 300, 40 bytes "
                   r"on dup_of_world, pending"],
        # print/r bypasses the printers: the plain handle value.
        "p_array": [r"^\$\d+ = (-?\d+|\(MPI_Comm\) 0x[0-9a-f]+|0x[0-9a-f]+)$"],
    }


def release():
    """`mpi release` while attached: the request written, nothing called."""
    return {"release": [r"^release asked \(request 1\): the runtime carries it out once the "
                        r"process runs"],
            "pending": [r"^orphans: 1 kept .* 0 released, release asked \(request 1\), pending$"]}


def after_release():
    """A second gdb after the first let the process run: the runtime released them."""
    return {"after_release": [r"^orphans: 0 kept .* 1 released$", r"^  comm: none$"]}


def mi():
    """Regexes over the whole gdb/MI transcript."""
    return [
        # gdb/MI shows "{...}" as the value of any varobj with children (gdb's rule);
        # -data-evaluate-expression gives the summary.
        r'\^done,name="comm",numchild="\d+",value="\{\.\.\.\}",type="MPI_Comm"',
        r'\^done,value="comm 0x[0-9a-f]+ \\"odds\\" \(MPI_Comm_split\): intra, rank 0 of 2 = '
        r'\{name = ',
        # Every kind expands to named children carrying what its summary says.
        r'child=\{name="comm\.name",exp="name",numchild="0",value="\\"odds\\""',
        r'child=\{name="comm\.size",exp="size",numchild="0",value="2"',
        r'child=\{name="comm\.rank",exp="rank",numchild="0",value="0"',
        r'child=\{name="comm\.world_ranks",exp="world_ranks",numchild="2",value="\[2\]"',
        r'child=\{name="comm\.world_ranks\.1",exp="1",numchild="0",value="3"',
        r'child=\{name="comm\.creator",exp="creator",numchild="0",value="\\"MPI_Comm_split\\""',
        r'child=\{name="dtype\.combiner",exp="combiner",numchild="0",value="\\"vector\\""',
        r'child=\{name="dtype\.type_map\.\[1\]",exp="\[1\]",numchild="0",value="\\"MPI_INT x2 @16\\""',
        r'child=\{name="info\.gdb_key",exp="gdb_key",numchild="0",value="\\"gdb_value\\""',
        r'child=\{name="group\.world_ranks",exp="world_ranks",numchild="2"',
        r'child=\{name="op\.commutative",exp="commutative",numchild="0",value="1"',
        r'child=\{name="errh\.callback",exp="callback",numchild="0",value="0x[0-9a-f]+',
        r'child=\{name="win\.size",exp="size",numchild="0",value="256"',
        r'child=\{name="req\.peer",exp="peer",numchild="0",value="2"',
        r'child=\{name="req\.tag",exp="tag",numchild="0",value="300"',
        r'child=\{name="req\.comm_name",exp="comm_name",numchild="0",value="\\"dup_of_world\\""',
        r'child=\{name="req\.buffer",exp="buffer",numchild="0",value="0x[0-9a-f]+( <recv_buf>)?"',
    ]


def no_runtime():
    """The program run without the mpidbg runtime."""
    missing = r"^mpi: no mpidbg runtime in .*: the symbol mpidbg_runtime_root was not found"
    return {
        "queues": [missing],
        "handle": [missing],
        "p_split": [r"^\$\d+ = (-?\d+|(\(MPI_Comm\) )?0x[0-9a-f]+)$"],
        "p_status": [r"^\$\d+ = \{.*MPI_SOURCE = 0, MPI_TAG = 7"],
        "release": [r"^mpi release: the process has no mpidbg_runtime_root"],
    }

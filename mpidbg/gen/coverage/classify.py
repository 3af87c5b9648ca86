"""Which class an MPI function belongs to, from its name and parameters alone.

  blocks    may wait for another process: blocking point-to-point, the Wait family,
            collectives (neighbourhood ones too), collective constructors and
            destructors, window synchronisation, collective file I/O (split forms too),
            dynamic processes, MPI_Init/Finalize, sessions, MPI_Buffer_detach
  request   posts, starts, readies or completes a request or an operation: any
            `MPI_Request *` or `MPI_Request x[]` parameter, the calls that act on a
            request by value (partitioned readiness and arrival, generalized request
            completion), one-sided communication and its local synchronisation, the
            matching probe MPI_Iprobe, independent file reads and writes
  object    creates, frees, names or changes an object, or hands out a handle: any
            non-const handle pointer or handle array parameter (an output), and the
            calls that name, free, set attributes, hints or errhandlers, keyvals,
            error classes, buffers, ports and published names
  query     everything else: pure local queries (rank, size, extents, conversions,
            pack/unpack, MPI_T) — these alone may go unwrapped, and only when named in
            local_queries.txt

The first class that applies wins (a blocking collective constructor is `blocks`). The
rules follow MPI's regular naming, so a function a new MPI version adds falls in a class
by itself; one the rules call a query still fails the check until a reader has put it
in local_queries.txt.
"""
import re

CLASSES = ("blocks", "request", "object", "query")

_LARGE = r"(?:_c)?"
_BLOCKS = [re.compile(p + "$") for p in (
    # point-to-point and completion
    r"MPI_(?:Send|Ssend|Bsend|Rsend|Recv|Probe|Mprobe|Mrecv|Sendrecv|Sendrecv_replace)" + _LARGE,
    r"MPI_Wait(?:all|any|some)?",
    # collectives, blocking (the _init and I* forms carry a request)
    r"MPI_(?:Barrier|Bcast|Reduce|Allreduce|Gather|Gatherv|Scatter|Scatterv|Allgather"
    r"|Allgatherv|Alltoall|Alltoallv|Alltoallw|Reduce_scatter|Reduce_scatter_block|Scan"
    r"|Exscan)" + _LARGE,
    r"MPI_Neighbor_(?:allgather|allgatherv|alltoall|alltoallv|alltoallw)" + _LARGE,
    # collective constructors and destructors of communicators, dynamic processes
    r"MPI_Comm_(?:dup|dup_with_info|split|split_type|create|create_group|create_from_group"
    r"|disconnect|spawn|spawn_multiple|accept|connect|join)",
    r"MPI_Intercomm_(?:create|merge|create_from_groups)",
    r"MPI_(?:Cart_create|Cart_sub|Graph_create|Dist_graph_create|Dist_graph_create_adjacent)",
    # windows: collective creation and free, synchronisation that waits for peers
    r"MPI_Win_(?:create|allocate|allocate_shared|create_dynamic|free|fence|lock|unlock"
    r"|lock_all|unlock_all|start|complete|wait|flush|flush_all|flush_local"
    r"|flush_local_all)" + _LARGE,
    # files: collective calls
    r"MPI_File_(?:open|close|set_view|set_info|sync|set_size|preallocate|set_atomicity"
    r"|seek_shared)",
    r"MPI_File_(?:read|write)(?:_at)?_all(?:_begin|_end)?" + _LARGE,
    r"MPI_File_(?:read|write)_ordered(?:_begin|_end)?" + _LARGE,
    # the library's own start and end; detach waits for buffered sends to leave
    r"MPI_(?:Init|Init_thread|Finalize|Session_init|Session_finalize|Abort)",
    r"MPI_Buffer_detach" + _LARGE,
    # a name service lookup may wait for the server
    r"MPI_Lookup_name",
)]

_REQUEST_BY_VALUE = re.compile(
    r"MPI_(?:Pready|Pready_range|Pready_list|Parrived|Grequest_complete|Iprobe"
    r"|Win_post|Win_test|Win_sync)$"
    r"|MPI_(?:Put|Get|Accumulate|Get_accumulate|Fetch_and_op|Compare_and_swap)" + _LARGE + "$"
    r"|MPI_File_(?:read|write)(?:_at|_shared)?" + _LARGE + "$")
_REQUEST_PARAM = re.compile(r"\bMPI_Request\s*(?:\*|\w+\s*\[)")

_HANDLES = r"MPI_(?:Comm|Group|Datatype|Info|Errhandler|Op|Win|File|Session|Message)"
# A non-const handle pointer or array: the function writes a handle.
_HANDLE_OUT = re.compile(r"(?<!const )\b" + _HANDLES + r"\s*(?:\*|\w+\s*\[)")
_OBJECT_NAMES = re.compile(
    r"MPI_\w*?(?:_free|_set_name|_set_attr|_delete_attr|_set_errhandler|_set_info"
    r"|_create_keyval|_free_keyval|_commit)" + _LARGE + "$"
    r"|MPI_(?:Attr_put|Attr_delete|Keyval_create|Keyval_free|Errhandler_set|Info_set"
    r"|Info_delete|Add_error_class|Add_error_code|Add_error_string|Register_datarep"
    r"|Alloc_mem|Free_mem|Buffer_attach|Open_port|Close_port|Publish_name"
    r"|Unpublish_name|Win_attach|Win_detach|File_delete)" + _LARGE + "$")


def classify(name, params):
    """The class of MPI function `name` with parameter text `params` (CLASSES)."""
    if name.startswith("MPI_T_"):
        return "query"  # the tool interface: local, and the tool's, not the program's
    if any(p.match(name) for p in _BLOCKS):
        return "blocks"
    if _REQUEST_BY_VALUE.match(name) or _REQUEST_PARAM.search(params):
        return "request"
    if _OBJECT_NAMES.match(name) or _HANDLE_OUT.search(params):
        return "object"
    return "query"

#!/usr/bin/env python3
"""Generate the runtime's Fortran wrappers from the same call tables as the C ones.

usage: gen_fortran.py --def categories.def --def mpi_calls.def [--def more.def ...]
                      --args fortran_args.tab --call-ids call_ids.h --out fortran_wrappers.cc
                      [--names names.txt]

For every call of the tables, one wrapper per Fortran entry point the two MPIs export
for it (measured with `nm -D` on libmpichfort, libmpi_mpifh and libmpi_usempif08):

  mpif.h and `use mpi`   mpi_send_  mpi_send__  mpi_send  MPI_SEND
  `use mpi_f08`          mpi_send_f08_ (Open MPI; MPICH for calls without a choice
                         buffer), mpi_send_f08ts_ (MPICH, choice buffers as array
                         descriptors); MPI_Send_c: mpi_send_f08ts_large_ /
                         mpi_<name>_f08_large_ (MPICH only)

A wrapper enters the same call scope as the C wrapper of that call (same call id and
thread state), builds the C view of the arguments (a local named like each C parameter,
so the table's role expressions apply unchanged), runs the category's Pre hook,
publishes, calls the library's own definition of the same Fortran name
(rt/fortran/fortran_entry.h) with the caller's arguments, converts what the call wrote
(handles, statuses, flags, indices) and runs the Post hook with the error code. Nested
in another MPI call (MPICH's Fortran layer calls the C MPI_* functions, which the
runtime also wraps) only the outermost records, so a call is counted once. A paused
thread's calls go straight to the library too, apart from what a `drains` category
records (gen_wrappers.py), which the Fortran wrapper tests on the Fortran handles, and
an `unpaused` one (MPI_Init, MPI_Finalize).

The C view exists only for the parameters a role expression (or a length fact) reads;
the others are only forwarded (one address each; a CHARACTER argument also its hidden
length at the end). By C parameter type (everything passes by reference in Fortran):
  int x                     *x                      MPI_Aint/Offset/Count x   *x
  int *x                    copy of *x, refreshed    T *x, T x[] (T integer)   the array
  MPI_<H> x                 PMPI_<H>_f2c(*x)        MPI_<H> *x                f2c before and after
  MPI_Comm *x, fact later   a view that outlives the call (MPI_Comm_idup: the hooks read
                            it at completion; rt::FortranLaterComm)
  MPI_<H> x[]               f2c of each of `length` elements, before and (not const) after
  MPI_Status *x, x[]        C copies of what the call wrote (MPI_STATUS(ES)_IGNORE
                            replaced by the runtime's own, as the C hooks do)
  void *x (choice)          the buffer, the Fortran MPI_IN_PLACE/MPI_BOTTOM made C's
  const char *x             a C copy of the CHARACTER argument (hidden length at the end)
  rt::RangeTriplets x       the INTEGER(3,n) array
  MPI_*_function *x         the procedure's address (Fortran passes procedures so)
  void *x, fact value=T     the integer of type T Fortran passes (attribute values)
A call with a parameter that is read but of none of these kinds gets no Fortran
wrapper; the generator lists those calls with the reason in --names (and the coverage
check, mpidbg/gen/coverage/, then fails unless fortran_unwrapped.txt lists the call).

The build fails (exit status 1) when fortran_args.tab names a call or parameter the
tables do not have, or a fact is unknown.
"""
import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from gen_wrappers import STATES, DefError, parse, read_call_ids  # noqa: E402
from gen_wrappers import nested_test as gen_nested_test  # noqa: E402

# C handle type -> the f2c conversion (PMPI_: the runtime never calls MPI_*).
HANDLES = {
    "MPI_Comm": "PMPI_Comm_f2c", "MPI_Datatype": "PMPI_Type_f2c", "MPI_Group": "PMPI_Group_f2c",
    "MPI_Request": "PMPI_Request_f2c", "MPI_Op": "PMPI_Op_f2c", "MPI_Info": "PMPI_Info_f2c",
    "MPI_Errhandler": "PMPI_Errhandler_f2c", "MPI_Message": "PMPI_Message_f2c",
    "MPI_Win": "PMPI_Win_f2c", "MPI_File": "PMPI_File_f2c", "MPI_Session": "PMPI_Session_f2c",
}
WIDE = {"MPI_Aint", "MPI_Offset", "MPI_Count"}
FACTS = {"absent", "index", "length", "filled", "value", "later"}


class Unsupported(Exception):
    pass


def read_args_table(path, calls):
    choice, facts, errors = set(), {}, []
    by_name = {c["name"]: c for c in calls}
    for lineno, raw in enumerate(open(path, encoding="utf-8"), 1):
        line = raw.split("#", 1)[0].strip()
        where = f"{path}:{lineno}"
        if not line:
            continue
        if line.startswith("@choice"):
            choice |= {n.strip() for n in line[len("@choice"):].split(",") if n.strip()}
            continue
        cols = [c.strip() for c in line.split("|")]
        if len(cols) != 3:
            errors.append(f"{where}: expected 'call | parameters | facts'")
            continue
        name, params, fact_text = cols
        if name not in by_name:
            errors.append(f"{where}: {name} is in no call table")
            continue
        parsed = {}
        for item in filter(None, (f.strip() for f in fact_text.split(";"))):
            key, _, value = item.partition("=")
            if key.strip() not in FACTS:
                errors.append(f"{where}: unknown fact '{key.strip()}'")
            parsed[key.strip()] = value.strip() or True
        for p in (p.strip() for p in params.split(",")):
            if p not in by_name[name]["names"]:
                errors.append(f"{where}: {name} has no parameter '{p}'")
            facts.setdefault(name, {}).setdefault(p, {}).update(parsed)
    if errors:
        raise DefError("\n".join(errors))
    return choice, facts


def split_param(text):
    """'const MPI_Datatype array_of_types[]' -> (const, base type, stars, name, is_array)."""
    m = re.match(r"^(const\s+)?([A-Za-z_][\w:]*)\s*(\**)\s*([A-Za-z_]\w*)\s*(\[\s*\])?$",
                 text.strip())
    if not m:
        raise Unsupported(f"parameter '{text.strip()}'")
    return bool(m.group(1)), m.group(2), len(m.group(3)), m.group(4), bool(m.group(5))


def default_length(call):
    for n in ("count", "incount"):
        if n in call["names"]:
            return n
    return None


class Wrapper:
    """The pieces of one call's Fortran wrappers for one binding form."""

    def __init__(self, call, facts, choice, form):
        self.call, self.form, self.choice = call, form, choice  # form: legacy, f08, f08ts
        self.facts = facts.get(call["name"], {})
        self.fparams, self.hidden, self.forward, self.hidden_forward = [], [], [], []
        self.pre, self.post = [], []
        late = []  # C views of arrays sized by another parameter, which may come later
        params = [] if call["params"].strip() == "void" else call["params"].split(",")
        for text in params:
            start = len(self.pre)
            if self.param(text):
                late += self.pre[start:]
                del self.pre[start:]
        self.pre += late

    def param(self, text):
        """Declares one parameter and its C view; True when the view must come last."""
        const, base, stars, name, array = split_param(text)
        fact = self.facts.get(name, {})
        if fact.get("absent"):
            ctype = base + "*" * stars + ("*" if array else "")
            self.pre.append(f"  {ctype} {name}{{}};  // not in the Fortran binding")
            self.pre.append(f"  (void){name};")
            return False
        if not self.read(name):
            # No role reads it, so the hooks need no C view: only how Fortran passes it
            # (one address; a CHARACTER argument also a hidden length at the end).
            if base == "char":
                self.take_string(name)
            else:
                self.take(f"void* {name}_f", f"{name}_f")
            return False
        shape = (base, stars, array)
        if base == "int":
            late = self.int_param(shape, name, fact)
        elif base in WIDE and not (stars or array):
            self.take(f"{base}* {name}_f", f"{name}_f")
            self.pre.append(f"  {base} {name} = *{name}_f;")
            late = False
        elif base in WIDE and (stars == 1) != array:
            self.take(f"{base}* {name}_f", f"{name}_f")
            self.pre.append(f"  {base}* {name} = {name}_f;")
            late = False
        elif base in HANDLES:
            late = self.handle_param(shape, const, name, fact)
        elif base == "MPI_Status":
            late = self.status_param(shape, name, fact)
        else:
            late = self.other_param(text, shape, const, name, fact)
        self.pre.append(f"  (void){name};")
        return late

    def int_param(self, shape, name, fact):
        f = f"{name}_f"
        self.take(f"MPI_Fint* {f}", f)
        if shape == ("int", 0, False):
            self.pre.append(f"  int {name} = *{f};")
        elif shape == ("int", 1, False):
            conv = f"{self.index_to_c()}(*{f})" if fact.get("index") else f"*{f}"
            self.pre.append(f"  int {name}_v = {conv};")
            self.pre.append(f"  int* {name} = &{name}_v;")
            self.post.append(f"  {name}_v = {conv};")
        elif shape == ("int", 0, True) and fact.get("index"):
            length = fact.get("length") or default_length(self.call)
            if not length or not fact.get("filled"):
                raise Unsupported(f"index array '{name}' without length and filled")
            self.pre.append(f"  rt::FortranArray<int> {name}_a({length});")
            self.pre.append(f"  int* {name} = {name}_a.data();")
            self.post.append(f"  for (int i_ = 0, n_ = {fact['filled']}; i_ < n_ && i_ < {name}_a.size(); ++i_)")
            self.post.append(f"    {name}[i_] = {self.index_to_c()}({f}[i_]);")
            return True
        elif shape == ("int", 0, True):
            self.pre.append(f"  int* {name} = reinterpret_cast<int*>({f});")
        else:
            raise Unsupported(f"parameter 'int{'*' * shape[1]} {name}'")
        return False

    def handle_param(self, shape, const, name, fact):
        base, stars, array = shape
        f2c, f = HANDLES[base], f"{name}_f"
        if stars > 1 or (stars and array):
            raise Unsupported(f"parameter '{base}{'*' * stars} {name}'")
        self.take(f"MPI_Fint* {f}", f)
        if not stars and not array:
            self.pre.append(f"  {base} {name} = {f2c}(*{f});")
            return False
        if stars and fact.get("later"):
            if base != "MPI_Comm":
                raise Unsupported(f"'later' for a {base}")
            self.pre.append(f"  {base}* {name} = rt::FortranLaterComm({f});")
            self.post.append(f"  rt::FortranLaterCommWritten({name}, {f});")
            return False
        if stars:
            self.pre.append(f"  {base} {name}_v = {f2c}(*{f});")
            self.pre.append(f"  {base}* {name} = &{name}_v;")
            self.post.append(f"  {name}_v = {f2c}(*{f});")
            return False
        length = fact.get("length") or default_length(self.call)
        if not length:
            raise Unsupported(f"handle array '{name}' without a length")
        self.pre.append(f"  rt::FortranArray<{base}> {name}_a({length});")
        self.pre.append(f"  {base}* {name} = {name}_a.data();")
        loop = f"  for (int i_ = 0; i_ < {name}_a.size(); ++i_) {name}[i_] = {f2c}({f}[i_]);"
        self.pre.append(loop)
        if not const:
            self.post.append(loop)
        return True

    def status_param(self, shape, name, fact):
        _, stars, array = shape
        f = f"{name}_f"
        if stars == 1 and not array:
            self.take(f"MPI_Fint* {f}", f"{name}_s.fortran()")
            self.pre.append(f"  rt::FortranStatus {name}_s({f});")
            late = False
        elif stars == 0 and array:
            length = fact.get("length") or default_length(self.call)
            if not length:
                raise Unsupported(f"status array '{name}' without a length")
            self.take(f"MPI_Fint* {f}", f"{name}_s.fortran()")
            self.pre.append(f"  rt::FortranStatuses {name}_s({f}, {length});")
            late = True
        else:
            raise Unsupported(f"parameter 'MPI_Status{'*' * stars} {name}'")
        self.pre.append(f"  MPI_Status* {name} = {name}_s.c();")
        self.post.append(f"  {name}_s.ToC();")
        return late

    def other_param(self, text, shape, const, name, fact):
        base, stars, array = shape
        f = f"{name}_f"
        single = stars == 1 and not array
        if base == "void" and single and name in self.choice:
            self.take(f"void* {f}", f)
            addr = f"rt::DescriptorBase({f})" if self.form == "f08ts" else f
            self.pre.append(f"  {'const ' if const else ''}void* {name} = rt::FortranBuffer({addr});")
        elif base == "void" and single and fact.get("value"):
            self.take(f"{fact['value']}* {f}", f)
            self.pre.append(f"  void* {name} = reinterpret_cast<void*>(static_cast<intptr_t>(*{f}));")
        elif base == "char" and single and const:
            self.take_string(name)
            self.pre.append(f"  rt::FortranString {name}_s({f}, {name}_len_f);")
            self.pre.append(f"  const char* {name} = {name}_s.c_str();")
        elif re.search(r"_function(_c)?$", base) and single:
            # A procedure argument: Fortran passes the procedure's address.
            self.take(f"void* {f}", f)
            self.pre.append(f"  {base}* {name} = reinterpret_cast<{base}*>({f});")
        elif base == "rt::RangeTriplets" and not stars:
            self.take(f"MPI_Fint* {f}", f)
            self.pre.append(f"  int (*{name})[3] = reinterpret_cast<int (*)[3]>({f});")
        else:
            raise Unsupported(f"parameter '{text.strip()}'")
        return False

    def take_string(self, name):
        """A CHARACTER argument: its address, and its hidden length after all others."""
        self.take(f"const char* {name}_f", f"{name}_f")
        self.hidden.append(f"size_t {name}_len_f")
        self.hidden_forward.append(f"{name}_len_f")

    def index_to_c(self):
        """How this binding's indices become C's (rt/fortran/fortran_convert.h)."""
        return "rt::FortranIndexToC" if self.form == "legacy" else "rt::F08IndexToC"

    def read(self, name):
        """Whether a role expression or a length fact of the call names the parameter."""
        word = re.compile(rf"\b{re.escape(name)}\b")
        exprs = [e for _, e in self.call["roles"]]
        exprs += [str(v) for p in self.facts.values() for v in p.values()]
        return any(word.search(e) for e in exprs)

    def take(self, decl, forward):
        self.fparams.append(decl)
        self.forward.append(forward)

    def signature(self, ierr_name):
        return ", ".join(self.fparams + [f"MPI_Fint* {ierr_name}"] + self.hidden)

    def arg_types(self):
        types = [p.rsplit(" ", 1)[0] for p in self.fparams] + ["MPI_Fint*"]
        return ", ".join(types + [h.rsplit(" ", 1)[0] for h in self.hidden])


def entry_names(call, has_choice):
    """(form, name) for every Fortran entry point of the call, both MPIs together."""
    name = call["name"]
    low = name.lower()
    if name.endswith("_c"):  # large-count forms: mpi_f08 of MPICH only
        base = low[:-2]
        return [("f08ts", f"{base}_f08ts_large_")] if has_choice else [("f08", f"{base}_f08_large_")]
    names = [("legacy", f"{low}_"), ("legacy", f"{low}__"), ("legacy", low), ("legacy", name.upper()),
             ("f08", f"{low}_f08_")]
    if has_choice:
        names.append(("f08ts", f"{low}_f08ts_"))
    return names


def nested_test(call):
    """gen_wrappers.nested_test for a Fortran wrapper: a drains call's handles are read
    from the Fortran arguments (<name>_f, an INTEGER each)."""
    def drained(requests, count):
        for expr in (requests, count):
            if expr is not None and not re.fullmatch(r"[A-Za-z_]\w*", expr):
                raise DefError(f"{call['name']}: a drains role must name a parameter: '{expr}'")
        return f"RecordsWhilePausedFortran(site_, {requests}_f, {f'*{count}_f' if count else '1'})"
    return gen_nested_test(call, "site_", drained)


def emit_body(call, w, fn_name):
    """A static function with the wrapper's body; each exported name calls it."""
    state = STATES[call["state"]]
    sig = w.signature("ierr_f")
    fwd_user = ", ".join([p.rsplit(" ", 1)[1] for p in w.fparams] + ["ierr_f"] + w.hidden_forward)
    fwd_own = ", ".join(w.forward + ["ierr_"] + w.hidden_forward)
    out = [
        f"static void {fn_name}(rt::FortranEntry& entry_, const void* site_, {sig}) {{",
        f"  using Next = void (*)({w.arg_types()});",
        "  Next next_ = reinterpret_cast<Next>(rt::FortranNext(entry_));",
        f"  rt::CallScope scope_(MPIDBG_CALL_{call['name']}, {state}, site_);",
        f"  if ({nested_test(call)}) {{",
        f"    next_({fwd_user});",
        "    return;",
        "  }",
        "  scope_.MarkFortran();",
        "  // mpi_f08's IERROR is optional (null when the caller left it out).",
        "  MPI_Fint ierr_own_ = MPI_SUCCESS;",
        "  MPI_Fint* ierr_ = ierr_f != nullptr ? ierr_f : &ierr_own_;",
    ]
    out += w.pre
    out.append(f"  rt::{call['args_type']} args_;")
    out += [f"  args_.{field} = {expr};" for field, expr in call["roles"]]
    out += [
        f"  {call['pre']};",
        "  scope_.Publish();",
        f"  next_({fwd_own});",
    ]
    out += w.post
    out += [
        f"  rt::Post{call['hook']}({call['hook_scope']}, args_, static_cast<int>(*ierr_));",
        "}",
    ]
    return out


def emit_call(call, facts, choice):
    has_choice = any(split_param(p)[3] in choice and split_param(p)[1] == "void"
                     for p in ([] if call["params"].strip() == "void" else call["params"].split(",")))
    out, names = [], []
    bodies = {}
    for form, sym in entry_names(call, has_choice):
        if form not in bodies:
            w = Wrapper(call, facts, choice, form)
            fn = f"Fortran_{call['name']}_{form}"
            bodies[form] = (w, fn)
            out += emit_body(call, w, fn)
        w, fn = bodies[form]
        params = w.signature("ierr_f")
        args = ", ".join([p.rsplit(" ", 1)[1] for p in w.fparams] + ["ierr_f"] +
                         [h.rsplit(" ", 1)[1] for h in w.hidden])
        out += [
            f"static rt::FortranEntry entry_{sym}{{\"{sym}\"}};",
            f"extern \"C\" MPIDBG_EXPORT void {sym}({params}) {{ {fn}(entry_{sym}, __builtin_return_address(0), {args}); }}",
        ]
        names.append(sym)
    if call["condition"]:
        out = [f"#if {call['condition']}"] + out + ["#endif"]
    out.append("")
    return out, names


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--def", dest="deffiles", action="append", required=True)
    ap.add_argument("--args", required=True)
    ap.add_argument("--call-ids", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--names", help="write each wrapped Fortran name (and each call left "
                                    "without a Fortran wrapper, with the reason) here")
    a = ap.parse_args()
    try:
        calls, includes = parse(a.deffiles, read_call_ids(a.call_ids))
        choice, facts = read_args_table(a.args, calls)
    except DefError as e:
        print(f"gen_fortran.py: error:\n{e}", file=sys.stderr)
        return 1
    body = [
        "// Generated by mpidbg/gen/fortran/gen_fortran.py from the call tables. Do not edit.",
        "// HOT PATH: each wrapper is a call scope, the argument conversions, two hooks and",
        "// the library's own Fortran entry point.",
        "#include <mpi.h>",
        "#include <stddef.h>",
        "#include <stdint.h>",
        "",
        '#include "mpidbg/call_ids.h"',
        '#include "rt/fortran/fortran_convert.h"',
        '#include "rt/fortran/fortran_entry.h"',
        '#include "rt/hot/hooks.h"',
    ]
    body += [f'#include "{h}"' for h in includes if h != "rt/hot/hooks.h"]
    body += [
        "",
        '#define MPIDBG_EXPORT __attribute__((visibility("default")))',
        '#pragma GCC diagnostic ignored "-Wdeprecated-declarations"',
        "",
        "namespace rt = ::mpidbg::rt;",
        "",
    ]
    listing = []
    for call in calls:
        try:
            out, names = emit_call(call, facts, choice)
        except Unsupported as e:
            listing.append(f"- {call['name']}: {e}")
            continue
        body += out
        listing += [f"{n} {call['name']}" for n in names]
    text = "\n".join(body)
    if a.names:
        write_if_changed(a.names, "\n".join(listing) + "\n")
    write_if_changed(a.out, text)
    return 0


def write_if_changed(path, text):
    try:
        if open(path, encoding="utf-8").read() == text:
            return  # unchanged: keep the timestamp, avoid recompiling
    except OSError:
        pass
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


if __name__ == "__main__":
    sys.exit(main())

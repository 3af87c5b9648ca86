"""help_text.py — what `mpidbg --help` and `mpidbg COMMAND --help` say, as data.

The help texts in the code are the one source of the man pages (gen_man.py) and the
bash completion (gen_completion.py); this module runs the built command and splits its
help into the pieces both need, so neither repeats a command or an option by hand.
"""
import re
import subprocess
from dataclasses import dataclass, field

# "  snapshot TARGET   everything known ..." / "  handle TARGET ... one MPI handle ...":
# the name, its argument words (upper case or "..."), then the summary.
COMMAND_LINE = re.compile(r"^  ([a-z][a-z0-9-]*)((?:\s+(?:[A-Z]+|\.\.\.))*)\s+(\S.*)$")
OPTION = re.compile(r"(?<![\w-])(-(?:-[a-z][a-z0-9-]*|[a-z]))(?![\w`-])(\[?[= ])?([^\s\]|)]+(?:\|[^\s\]|)]+)*)?")
# Where a description names an option of its command: opening a line or a sentence.
OPTION_IN_TEXT = re.compile(r"(?:^\s*|\.\s+)(--?[a-z][\w-]*(?![\w`-])(?:[= ]\S+)?)")
VALUE_WORD = re.compile(r"^(?:[A-Z][A-Z0-9_.,]*|[A-Za-z0-9_]+(?:\|[A-Za-z0-9_]+)+|OUT\.svg|JOBID\[\.STEP\])")


@dataclass
class Option:
    name: str
    value: str = ""        # "FILE", "mpich|openmpi", "" for a flag
    joined: bool = False   # the value only as --name=VALUE (optional), never a word of its own

    @property
    def choices(self):
        return self.value.split("|") if "|" in self.value else []


@dataclass
class CommandHelp:
    name: str
    summary: str            # from the command table of `mpidbg --help`
    usage: list             # the usage lines, "usage: " taken off the first
    description: list       # the lines after the usage
    options: list = field(default_factory=list)


@dataclass
class MainHelp:
    usage: str
    tagline: str
    commands: list          # CommandHelp, in the order of the table
    after: list             # the lines after the command table
    version: str = ""


def run_help(mpidbg, *args):
    out = subprocess.run([mpidbg, *args], check=True, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, timeout=60)
    return out.stdout


def split_usage(text):
    """The usage lines (an indented line opening with '(', '[' or '-' continues them)
    and the rest."""
    lines = text.rstrip("\n").splitlines()
    if not lines or not lines[0].startswith("usage: "):
        raise ValueError("help text does not start with 'usage: ': %r" % text[:80])
    usage = [lines[0][len("usage: "):]]
    i = 1
    while i < len(lines) and re.match(r"^\s+[(\[-]", lines[i]) and not re.match(r"^\s+--?[a-z][\w-]*\s{2,}", lines[i]):
        usage.append(lines[i])
        i += 1
    return usage, lines[i:]


def parse_options(usage, description):
    """Options named in the usage, and those a description line opens with (an option
    table row, or a sentence about the option): never one quoted in passing, such as
    another program's flag."""
    found = {}
    heads = list(usage)
    for line in description:
        heads += [m.group(1) for m in OPTION_IN_TEXT.finditer(line)]
    for head in heads:
        for m in OPTION.finditer(head):
            name, sep, value = m.group(1), m.group(2) or "", m.group(3) or ""
            if not sep or not VALUE_WORD.match(value):
                sep, value = "", ""
            if name not in found or (value and not found[name].value):
                found[name] = Option(name, value, sep.startswith("["))
    found.setdefault("--help", Option("--help"))
    return sorted(found.values(), key=lambda o: o.name)


def read_main(mpidbg):
    text = run_help(mpidbg, "--help")
    lines = text.rstrip("\n").splitlines()
    usage = lines[0][len("usage: "):]
    tagline = next(l for l in lines[1:] if l.strip())
    start = lines.index("commands:") + 1
    commands = []
    i = start
    while i < len(lines) and lines[i].strip():
        m = COMMAND_LINE.match(lines[i])
        if not m:
            raise ValueError("unreadable command table line: %r" % lines[i])
        commands.append(CommandHelp(m.group(1), m.group(3).strip(), [], []))
        i += 1
    version = run_help(mpidbg, "--version").splitlines()[0].split()[-1]
    return MainHelp(usage, tagline, commands, lines[i:], version)


def read_all(mpidbg):
    """The main help and every command's, options parsed."""
    main = read_main(mpidbg)
    for c in main.commands:
        c.usage, c.description = split_usage(run_help(mpidbg, c.name, "--help"))
        c.options = parse_options(c.usage, c.description)
    return main

"""munge.py — one munged for the whole cluster, run as the munge user, with its own key,
socket and files in the cluster's directory (the machine's own munge is left alone).
Every node reaches the socket: the nodes share the host's file system below /var/tmp."""
import os
import pwd
import subprocess
import time


def prepare(directory):
    """Creates the key and the directory munged insists on owning; returns the socket."""
    user = pwd.getpwnam("munge")
    # Everyone may traverse to the socket (munged checks it); only munge may list or
    # write the directory.
    os.makedirs(directory)
    os.chmod(directory, 0o711)
    key = f"{directory}/munge.key"
    with open(key, "wb") as f:
        f.write(os.urandom(1024))
    os.chmod(key, 0o400)
    for path in (directory, key):
        os.chown(path, user.pw_uid, user.pw_gid)
    return f"{directory}/munge.socket"


def command(directory):
    # setpriv execs munged itself (runuser would stay as its parent), so the pid we keep
    # is munged's.
    return ["setpriv", "--reuid=munge", "--regid=munge", "--init-groups",
            "munged", "--foreground",
            f"--socket={directory}/munge.socket", f"--key-file={directory}/munge.key",
            f"--pid-file={directory}/munged.pid", f"--log-file={directory}/munged.log",
            f"--seed-file={directory}/munged.seed"]


def wait_ready(socket, seconds=10):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        r = subprocess.run(["munge", "-n", f"--socket={socket}"], capture_output=True)
        if r.returncode == 0:
            return
        time.sleep(0.1)
    raise RuntimeError(f"munged did not answer on {socket}")

"""slurm_config.py — the slurm.conf of an emulated cluster.

Chosen so that Slurm needs neither cgroups nor systemd (linuxproc process tracking, no
task plugin, no accounting), every file lives in the cluster's own directory (%n makes
the slurmd files per node), and each node claims CPUs enough for two ranks whatever the
machine has (config_overrides: the nodes share the host's few cores)."""

CPUS_PER_NODE = 4


def slurm_conf(names, addresses, ctld_port, munge_socket):
    d = names.dir
    nodes = [
        f"NodeName={names.node(i)} NodeAddr={addresses.node(i)} CPUs={CPUS_PER_NODE} "
        f"State=UNKNOWN"
        for i in range(1, names.nodes + 1)
    ]
    return "\n".join([
        f"ClusterName={names.bridge}",
        f"SlurmctldHost={names.controller}({addresses.host})",
        f"SlurmctldPort={ctld_port}",
        "SlurmdPort=6818",              # inside each node's own network namespace
        "SlurmUser=root",
        "SlurmdUser=root",
        "AuthType=auth/munge",
        "CredType=cred/munge",
        f"AuthInfo=socket={munge_socket}",
        "ProctrackType=proctrack/linuxproc",
        "TaskPlugin=task/none",
        "JobAcctGatherType=jobacct_gather/none",
        "AccountingStorageType=accounting_storage/none",
        "JobCompType=jobcomp/none",
        "SelectType=select/cons_tres",
        "SelectTypeParameters=CR_Core",
        "SlurmdParameters=config_overrides",
        "SwitchType=switch/none",
        "MpiDefault=none",
        "ReturnToService=2",
        "InactiveLimit=0",
        "KillWait=2",
        "MinJobAge=2",
        "MessageTimeout=10",
        "SlurmdTimeout=60",
        "MailProg=/bin/true",
        f"StateSaveLocation={d}/ctld/state",
        f"SlurmctldPidFile={d}/ctld/slurmctld.pid",
        f"SlurmctldLogFile={d}/log/slurmctld.log",
        f"SlurmdSpoolDir={d}/nodes/%n/spool",
        f"SlurmdPidFile={d}/nodes/%n/slurmd.pid",
        f"SlurmdLogFile={d}/log/slurmd-%n.log",
        *nodes,
        "PartitionName=all Nodes=ALL Default=YES MaxTime=INFINITE State=UP",
        "",
    ])


def hosts_file(names, addresses):
    """The /etc/hosts every node and the controller see: the cluster's names only."""
    lines = ["127.0.0.1 localhost", f"{addresses.host} {names.controller}"]
    lines += [f"{addresses.node(i)} {names.node(i)}" for i in range(1, names.nodes + 1)]
    return "\n".join(lines) + "\n"

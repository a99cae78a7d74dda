"""Network isolation: a private bridge per provider that only the host can talk to.

Docker forwards nothing out of an *internal* network (so no route to the internet, nor DNS
beyond the network itself), and with inter-container communication off the containers on it
cannot reach each other either: an agent cannot tamper with the spare container waiting for
the next task. Such a network cannot publish ports, so the host reaches each container at its
address on the bridge instead, which nothing but the host can reach.

What Docker leaves open is the host itself: a container's packets to any host address arrive
through the host's INPUT chain, which Docker does not filter. One rule per bridge drops all but
answers to the host's own connections, so a container cannot use the host's listening ports.
Docker disables IPv6 inside containers of a network created without it, so IPv4 is all there
is to close. The rule names only the bridge: one left behind by a crash matches nothing once the
network is gone.
"""

from __future__ import annotations

import subprocess

import docker
from docker.errors import DockerException, NotFound
from docker.models.networks import Network

from pytest_spider2v.environments.base import EnvironmentFault

BRIDGE_OPTION = "com.docker.network.bridge.name"
#: Bridge interface names start with this; with a 11-character suffix they stay within Linux's 15.
BRIDGE_PREFIX = "s2v-"


def create_isolated(client: docker.DockerClient, name: str, bridge: str, labels: dict[str, str]) -> Network:
    """An internal bridge without inter-container traffic, its INPUT rule in place."""
    try:
        network = client.networks.create(
            name, driver="bridge", internal=True, labels=labels,
            options={BRIDGE_OPTION: bridge, "com.docker.network.bridge.enable_icc": "false"},
        )
    except DockerException as exc:
        raise EnvironmentFault(f"--isolate-network: cannot create network {name}: {exc}") from exc
    try:
        _input_rule("-I", bridge)
    except EnvironmentFault:
        network.remove()
        raise
    return network


def container_address(network: Network, attrs: dict) -> str | None:
    """A container's IPv4 address on the network (None until Docker has assigned it)."""
    return (attrs["NetworkSettings"]["Networks"].get(network.name) or {}).get("IPAddress") or None


def remove_isolated(network: Network) -> None:
    """Remove the network, then its rule; the network's containers must be gone already.

    A network Docker will not remove yet (a container still being removed by someone else)
    keeps its rule and is left to the next run's stale cleanup.
    """
    bridge = (network.attrs.get("Options") or {}).get(BRIDGE_OPTION, "")
    try:
        network.remove()
    except NotFound:
        pass
    except DockerException:
        return
    if bridge.startswith(BRIDGE_PREFIX):
        try:
            _input_rule("-D", bridge)
        except EnvironmentFault:
            pass  # already gone; a stale rule would match nothing anyway


def _input_rule(action: str, bridge: str) -> None:
    """Insert (``-I``) or delete (``-D``) the rule dropping what the bridge's containers start towards the host."""
    command = ["iptables", "-w", action, "INPUT", "-i", bridge,
               "-m", "conntrack", "!", "--ctstate", "ESTABLISHED,RELATED", "-j", "DROP"]
    try:
        subprocess.run(command, check=True, capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError) as exc:
        detail = getattr(exc, "stderr", None) or exc
        raise EnvironmentFault(
            f"--isolate-network: cannot shut the host's ports off from {bridge} "
            f"(`{' '.join(command)}` needs iptables and root): {detail}"
        ) from exc

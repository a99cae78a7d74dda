"""The Swarm provider: every acquire runs a service of one replica on a Docker Swarm, from the
task's image as this checkout built it and pushed it to the cluster's registry.

The harness stays on the controller machine (pytest and its xdist workers); the desktops run on
the cluster's nodes, placed by Swarm under the CPU and memory of the snapshot table (the same
values ``--env-cpus`` and ``--env-memory`` set locally), as reservations and as limits, so no node
takes more than it has; a service that finds no room waits in Swarm's own ``pending`` state. The
guest's own ports are never published: each service runs the guest gate
(:mod:`pytest_spider2v.guest.gate`, shipped as a Swarm config) beside the image's command, and
publishes the gate's ports, in host mode at ports the node picks. The gate lets a connection
through only when it proves it holds the secret made for that environment (a Swarm secret, so it
is in no environment variable or service spec); the harness reaches the guest through local
tunnels that prove it (:mod:`.tunnel`), at ``127.0.0.1`` as on one machine. Each service, secret
and config carries the labels of the local provider (run, worker, provider instance, snapshot), so
the same cleanup applies: a run's services are removed at its end, after Ctrl-C or SIGTERM
(:meth:`SwarmProvider.remove_run`) and, after a crashed controller, by the next run's stale-owner
cleanup.

Images: ``spider2v-build --push REGISTRY`` pushes them; a service names its image by the digest the
push gave this checkout's build, and an image the registry does not have at that digest is refused
before any service starts.
"""

from __future__ import annotations

import logging
import secrets
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import docker
import httpx
from docker.errors import APIError, DockerException, ImageNotFound, NotFound
from docker.models.containers import Container
from docker.models.services import Service
from docker.types import ConfigReference, Mount, Resources, RestartPolicy, SecretReference
from docker.utils import kwargs_from_env

from pytest_spider2v.environments.base import BrokenFromInside, Environment, EnvironmentFault
from pytest_spider2v.environments.http import HttpEnvironment
from pytest_spider2v.environments.limits import Limits, parse_memory
from pytest_spider2v.environments.locations import GUEST_GATE, RECIPES_DIR
from pytest_spider2v.environments.provider import SnapshotTable, left_after, owner_alive
from pytest_spider2v.environments.snapshots import GUEST_SERVER_PORT, Snapshot
from pytest_spider2v.providers.docker.disk import DiskWatch
from pytest_spider2v.providers.docker.provider import (
    HOSTNAME,
    LABEL,
    OWNER_LABEL,
    PROVIDER_LABEL,
    SNAPSHOT_LABEL,
    WORKER_LABEL,
)
from pytest_spider2v.providers.docker.witness import EngineWitness
from pytest_spider2v.providers.swarm.tunnel import Tunnels

log = logging.getLogger(__name__)

#: Task states of a service's replica that will never run (Swarm's own names).
ENDED = frozenset({"complete", "failed", "shutdown", "rejected", "orphaned", "remove"})
#: How often a service's placement is looked at, and a waiting one reported.
POLL = 0.5
WAITING_REPORT = 30.0
#: How many times a replica that Swarm gave to a node that then went down is placed again.
REPLACEMENTS = 3
#: How long a readiness poll lasts before the node's state is looked at again.
READY_SLICE = 10.0
#: The gate's port for the i-th guest port, inside the container: the first of a range no
#: application of ours uses.
FIRST_GATE_PORT = 47000
#: Where the gate's source and the environment's secret lie in the container.
GATE_PATH = "/opt/spider2v-gate.py"
SECRET_FILE = "spider2v-gate-secret"
#: Names the service a secret or config belongs to (they outlive a service only by accident).
SERVICE_LABEL = f"{LABEL}.service"


class _NodeDown(Exception):
    """Swarm gave the replica to a node that is down (it had not noticed yet when it placed it)."""


@dataclass
class SwarmEnvironment(HttpEnvironment):
    """A desktop in a service's container on a cluster node, reached through tunnels at
    ``127.0.0.1`` (``ports``: guest port -> tunnel port); ``host`` is the node's address and
    ``gate_ports`` the ports its gate published there. Its witness is the node's engine."""

    host: str = field(kw_only=True)
    node: str = field(kw_only=True)  #: the node's host name, as Swarm knows it
    node_id: str = field(kw_only=True, repr=False)
    task_id: str = field(kw_only=True, repr=False)  #: the service's replica given to the node
    gate_ports: dict[int, int] = field(kw_only=True, repr=False)
    witness: NodeWitness | None = field(default=None, kw_only=True)
    disk: DiskWatch | None = field(default=None, kw_only=True, repr=False)

    def _request(self, method: str, path: str, *, timeout: float | None = None, **kw: Any) -> httpx.Response:
        try:
            return super()._request(method, path, timeout=timeout, **kw)
        except EnvironmentFault as exc:
            if self.disk is not None and self.disk.breach is not None:  # the watch killed it: say why
                raise BrokenFromInside(f"{self.name}: {self.disk.breach}") from exc
            raise

    def close(self) -> None:
        if self.disk is not None:
            self.disk.stop()
        super().close()


class NodeWitness(EngineWitness):
    """A service's container seen from its node's engine; the manager adds what only it knows:
    the node lost, the replica stopped by the cluster (a node drained)."""

    def __init__(self, container: Container, exec_api: docker.APIClient, *, user: str, ports: tuple[int, ...],
                 cluster_cause: Callable[[], str | None]) -> None:
        super().__init__(container, exec_api, user=user, ports=ports)
        self._cluster_cause = cluster_cause

    def outside_cause(self, since: float) -> str | None:
        return self._cluster_cause() or super().outside_cause(since)


class SwarmProvider:
    """Hands out services of one replica on the Swarm whose manager's engine API is ``manager``
    (``tcp://node1:2375``, ``ssh://user@node1``), from images in ``registry`` (as the nodes and
    this machine both name it: ``registry.lab:5000``). Each environment's witness is the engine of
    the node it runs on, at ``node_engine`` with the node's address put for ``{address}``
    (``tcp://{address}:2376``; TLS as ``DOCKER_TLS_VERIFY`` and ``DOCKER_CERT_PATH`` say)."""

    def __init__(
        self,
        owner: str,
        worker: str,
        *,
        manager: str,
        registry: str,
        environments_dir: Path = RECIPES_DIR,
        ready_timeout: float = 300.0,
        place_timeout: float = 3600.0,
        shm_size: str = "1g",
        node_engine: str,
        memory: str | int | None = None,
        cpus: float | str | None = None,
        pids: int | str | None = None,
        disk: str | int | None = None,
        isolate_network: bool = False,
    ) -> None:
        if isolate_network:
            raise EnvironmentFault("swarm provider: --isolate-network applies to the local provider only")
        self.owner = owner
        self.worker = worker
        self.registry = registry.rstrip("/")
        self.ready_timeout = ready_timeout
        self.place_timeout = place_timeout
        self.shm_bytes = parse_memory(shm_size)
        self.table = SnapshotTable(environments_dir, "swarm", memory=memory, cpus=cpus, pids=pids, disk=disk)
        self.node_engine = node_engine
        self._engines: dict[str, tuple[docker.DockerClient, docker.APIClient]] = {}  # node address -> its engine
        self.instance = uuid.uuid4().hex[:12]
        try:
            self.client = docker.DockerClient(base_url=manager, timeout=120)
            swarm = self.client.info().get("Swarm", {})
        except DockerException as exc:
            raise EnvironmentFault(f"swarm provider: cannot reach the manager {manager}: {exc}") from exc
        if swarm.get("LocalNodeState") != "active" or not swarm.get("ControlAvailable"):
            raise EnvironmentFault(f"swarm provider: {manager} is not a manager of an active Swarm")
        self.tunnels = Tunnels()
        self._images: dict[str, str] = {}  # snapshot image -> its reference by digest
        self._commands: dict[str, list[str]] = {}  # snapshot image -> its entrypoint and command
        self._services: dict[str, Service] = {}  # environment name -> service
        self._secrets: dict[str, bytes] = {}  # service name -> its gate's secret

    # -- provider protocol ------------------------------------------------------------------
    def acquire(self, snapshot: str) -> Environment:
        spec = self._snapshot(snapshot)
        replaced = 0
        while True:
            service = self._create(spec)
            try:
                env = self._placed(service, spec)
                self._wait_ready(env)
            except _NodeDown as down:
                self._remove(service)
                replaced += 1
                if replaced > REPLACEMENTS:
                    raise EnvironmentFault(f"swarm provider: {down}") from None
                log.warning("%s; placing it again", down)
                continue
            except BaseException:
                self._remove(service)
                raise
            self._services[env.name] = service
            try:
                self._witnessed(env, spec)
            except BaseException:
                self.release(env)
                raise
            return env

    def release(self, env: Environment) -> None:
        env.close()
        service = self._services.pop(env.name, None)
        if service is not None:
            self._remove(service)

    def close(self) -> None:
        for service in [*self._services.values(), *self._labelled({PROVIDER_LABEL: self.instance})]:
            self._remove(service)
        self._services.clear()
        self._sweep({PROVIDER_LABEL: self.instance})
        self.tunnels.close()

    def cleanup_stale(self) -> int:
        stale = [s for s in self._labelled({}) if not owner_alive(s.attrs["Spec"]["Labels"].get(OWNER_LABEL, ""))]
        for service in stale:
            self._remove(service)
        self._sweep({}, lambda labels: not owner_alive(labels.get(OWNER_LABEL, "")))
        return len(stale)

    def remove_run(self, wait: float = 0.0) -> int:
        left = left_after(lambda: self._labelled({OWNER_LABEL: self.owner}), wait, POLL)
        for service in left:
            self._remove(service)
        self._sweep({OWNER_LABEL: self.owner})
        return len(left)

    def limits_of(self, snapshot: str) -> Limits:
        """The limits a service of ``snapshot`` reserves and runs under: the run's over the table's."""
        return self.table.limits_of(snapshot)

    # -- services -----------------------------------------------------------------------------
    def _snapshot(self, name: str) -> Snapshot:
        spec = self.table[name]
        self._image(spec)
        return spec

    def _image(self, spec: Snapshot) -> str:
        """``registry/name@digest`` of this checkout's build of the snapshot's image, once the
        cluster's registry is known to have it at that digest."""
        if spec.image in self._images:
            return self._images[spec.image]
        repository = f"{self.registry}/{spec.image.rsplit(':', 1)[0]}"
        push = f"spider2v-build --push {self.registry} {spec.recipe}"
        try:
            built = docker.from_env().images.get(spec.image)
        except ImageNotFound:
            raise EnvironmentFault(f"swarm provider: image {spec.image} is not built here; run `{push}`") from None
        config = built.attrs.get("Config") or {}
        self._commands[spec.image] = [*(config.get("Entrypoint") or []), *(config.get("Cmd") or [])]
        pushed = [d for d in built.attrs.get("RepoDigests") or [] if d.startswith(f"{repository}@")]
        if not pushed:
            raise EnvironmentFault(f"swarm provider: this checkout's {spec.image} was never pushed to "
                                   f"{self.registry}; run `{push}`")
        try:
            self.client.api.inspect_distribution(pushed[0])
        except APIError as exc:
            raise EnvironmentFault(f"swarm provider: registry {self.registry} has no {pushed[0]} (the digest "
                                   f"this checkout built): {exc.explanation}; run `{push}`") from None
        self._images[spec.image] = pushed[0]
        return pushed[0]

    def _create(self, spec: Snapshot) -> Service:
        limits = self.limits_of(spec.name)
        name = f"spider2v-{self.worker}-{uuid.uuid4().hex[:8]}"
        labels = {LABEL: "1", OWNER_LABEL: self.owner, WORKER_LABEL: self.worker, PROVIDER_LABEL: self.instance,
                  SNAPSHOT_LABEL: spec.name}
        nano_cpus = int(limits.cpus * 1e9) if limits.cpus else None
        routes = gate_routes(spec.ports)
        secret = secrets.token_hex(32).encode()
        try:
            gate_secret = self.client.secrets.create(name=f"{name}-secret", data=secret,
                                                     labels={**labels, SERVICE_LABEL: name})
            gate_source = self.client.configs.create(name=f"{name}-gate", data=GUEST_GATE.read_bytes(),
                                                     labels={**labels, SERVICE_LABEL: name})
            service = self.client.services.create(
                self._images[spec.image],
                # the gate beside the image's own command, which stays the container's main process
                # (a gate that exits takes the container with it: docker-init, process 1, ends it)
                command=["/bin/sh", "-c", f"(python3 {GATE_PATH} /run/secrets/{SECRET_FILE} $0; kill 1) & exec \"$@\"",
                         " ".join(f"{gate}:{port}" for gate, port in routes.items()), *self._commands[spec.image]],
                name=name,
                labels=labels,
                container_labels=labels,
                hostname=HOSTNAME,
                init=True,
                mounts=[Mount("/dev/shm", None, type="tmpfs", tmpfs_size=self.shm_bytes)],
                # readable by the image's user, whoever that is: the environment's own processes may read
                # it (the agent already commands this desktop); the gate keeps out everyone else
                secrets=[SecretReference(str(gate_secret.id), f"{name}-secret", filename=SECRET_FILE, mode=0o444)],
                configs=[ConfigReference(str(gate_source.id), f"{name}-gate", filename=GATE_PATH, mode=0o444)],
                resources=Resources(cpu_limit=nano_cpus, mem_limit=limits.memory,
                                    cpu_reservation=nano_cpus, mem_reservation=limits.memory),
                restart_policy=RestartPolicy(condition="none"),
                # only the gate's ports, in host mode at ports the node picks: reached at the node's address
                endpoint_spec={"Ports": [{"Protocol": "tcp", "TargetPort": gate, "PublishMode": "host"}
                                         for gate in routes]},
            )
        except DockerException as exc:
            self._remove_gate(name)
            raise EnvironmentFault(f"swarm provider: cannot create a service of {spec.image}: {exc}") from exc
        self._secrets[name] = secret
        return service

    def _placed(self, service: Service, spec: Snapshot) -> SwarmEnvironment:
        """The service's environment once its replica runs: the node and the ports it published.
        A replica that waits for room is reported every half minute; one that ends is a fault."""
        started = reported = time.monotonic()
        while True:
            tasks = service.tasks()
            task = tasks[0] if tasks else None
            status = task["Status"] if task else {}
            state = status.get("State", "new")
            if state == "running" and task is not None:
                return self._environment(service, task, spec)
            if state in ENDED:
                raise EnvironmentFault(f"swarm provider: {service.name} {state}: {status.get('Err') or status.get('Message')}")
            if task is not None and task.get("NodeID") and self._node_state(task["NodeID"]) == "down":
                raise _NodeDown(f"{service.name} was given to node {task['NodeID'][:12]}, which is down")
            waited = time.monotonic() - started
            if waited > self.place_timeout:
                raise EnvironmentFault(f"swarm provider: {service.name} not placed after {waited:.0f} s ({state}: "
                                       f"{status.get('Err') or status.get('Message')})")
            if state == "pending" and time.monotonic() - reported > WAITING_REPORT:
                reported = time.monotonic()
                log.warning("%s waits for room on the cluster (%.0f s): %s", service.name, waited, status.get("Err"))
            time.sleep(POLL)

    def _wait_ready(self, env: SwarmEnvironment) -> None:
        """The guest's readiness, in slices between which the node's state is looked at: a node
        that went down makes the replica be placed again at once, not after the whole timeout."""
        deadline = time.monotonic() + self.ready_timeout
        while True:
            try:
                env.wait_ready(min(READY_SLICE, max(deadline - time.monotonic(), 0.1)))
                return
            except EnvironmentFault:
                if self._node_state(env.node_id) == "down":
                    raise _NodeDown(f"{env.name}'s node {env.node} went down before its desktop was ready") from None
                desired, state, why = self._replica(env)
                if state in ENDED:  # its command or its gate exited: placing it again would do the same
                    raise EnvironmentFault(f"swarm provider: {env.name} {state} on node {env.node} before its desktop "
                                           f"was ready: {why}; its log: {self._log_tail(env.name)}") from None
                if desired != "running":
                    raise _NodeDown(f"{env.name}'s replica was stopped on node {env.node} (drained?) before its "
                                    "desktop was ready") from None
                if time.monotonic() >= deadline:
                    raise

    def _environment(self, service: Service, task: dict[str, Any], spec: Snapshot) -> SwarmEnvironment:
        node = self.client.nodes.get(task["NodeID"])
        published = {p["TargetPort"]: p["PublishedPort"] for p in task["Status"].get("PortStatus", {}).get("Ports", [])}
        gates = {port: published[gate] for gate, port in gate_routes(spec.ports).items() if gate in published}
        if GUEST_SERVER_PORT not in gates:
            raise EnvironmentFault(f"swarm provider: {service.name} runs without its guest gate published")
        address = node.attrs["Status"]["Addr"]
        name, secret = str(service.name), self._secrets[str(service.name)]
        tunnels = {port: self.tunnels.open(name, address, gate, secret) for port, gate in gates.items()}
        return SwarmEnvironment(name, f"http://127.0.0.1:{tunnels[GUEST_SERVER_PORT]}", tunnels,
                                display=spec.display, host=address, node=node.attrs["Description"]["Hostname"],
                                image=str(task["Spec"]["ContainerSpec"]["Image"]),
                                node_id=str(node.id), task_id=str(task["ID"]), gate_ports=gates)

    def _witnessed(self, env: SwarmEnvironment, spec: Snapshot) -> None:
        """Give ``env`` its node's engine as witness (and its disk watch), before any agent acts in it."""
        tasks = self.client.api.tasks(filters={"id": env.task_id})
        container_id = ((tasks[0].get("Status") or {}).get("ContainerStatus") or {}).get("ContainerID") if tasks else None
        if not container_id:
            raise EnvironmentFault(f"swarm provider: {env.name}'s replica names no container on node {env.node}")
        client, api = self._engine(env.host)
        try:
            container = client.containers.get(container_id)
        except DockerException as exc:
            raise EnvironmentFault(f"swarm provider: node {env.node}'s engine at {self._engine_url(env.host)}: {exc}") from exc
        user = str(container.attrs["Config"].get("User") or "root").split(":")[0]
        env.witness = NodeWitness(container, api, user=user, ports=spec.ports, cluster_cause=lambda: self._lost(env))
        disk = self.limits_of(spec.name).disk
        if disk:
            env.disk = DiskWatch(env.witness, disk)

    def _engine_url(self, address: str) -> str:
        return self.node_engine.format(address=address)

    def _engine(self, address: str) -> tuple[docker.DockerClient, docker.APIClient]:
        """A node's engine: a client for its containers and one without a read timeout for commands."""
        if address not in self._engines:
            url, tls = self._engine_url(address), kwargs_from_env().get("tls") or False
            try:
                self._engines[address] = (docker.DockerClient(base_url=url, tls=tls, timeout=120),
                                          docker.APIClient(base_url=url, tls=tls, timeout=None))  # type: ignore[arg-type]
            except DockerException as exc:
                raise EnvironmentFault(f"swarm provider: cannot reach the node engine {url}: {exc}") from exc
        return self._engines[address]

    def _lost(self, env: SwarmEnvironment) -> str | None:
        """What the cluster did to ``env``'s replica: its node lost, the replica stopped (drained)."""
        if self._node_state(env.node_id) == "down":
            return f"node {env.node} is down"
        desired, state, why = self._replica(env)
        if desired != "running":
            return f"the cluster stopped {env.name}'s replica on node {env.node} ({state}: {why})"
        return None

    def _node_state(self, node_id: str) -> str:
        try:
            return str(self.client.nodes.get(node_id).attrs["Status"]["State"])
        except NotFound:
            return "down"

    def _replica(self, env: SwarmEnvironment) -> tuple[str, str, str]:
        """(desired state, state, error) of the replica the environment was given: draining a node
        makes the desired state ``shutdown`` (Swarm starts a fresh replica elsewhere); a container
        that exited is ``failed`` or ``complete``."""
        try:
            tasks = self.client.api.tasks(filters={"id": env.task_id})
        except DockerException:
            return "running", "running", ""  # the manager is busy: decide at the next slice
        if not tasks:
            return "shutdown", "orphaned", "the manager no longer knows it"
        status = tasks[0].get("Status", {})
        return str(tasks[0].get("DesiredState")), str(status.get("State")), str(status.get("Err") or status.get("Message"))

    def _log_tail(self, name: str, lines: int = 20) -> str:
        try:
            raw = self.client.api.service_logs(name, stdout=True, stderr=True, tail=str(lines))
            return b"".join(raw).decode(errors="replace").strip()[-3000:]
        except DockerException as exc:
            return f"(not read: {exc})"

    def _labelled(self, extra: dict[str, str]) -> list[Service]:
        filters = [f"{LABEL}=1", *(f"{k}={v}" for k, v in extra.items())]
        return list(self.client.services.list(filters={"label": filters}))

    def _remove(self, service: Service) -> None:
        name = str(service.name)
        self.tunnels.close_for(name)
        try:
            service.remove()
        except NotFound:
            pass
        self._remove_gate(name)

    def _remove_gate(self, name: str) -> None:
        """Remove the service's gate secret and config (none left after a service is gone)."""
        self._secrets.pop(name, None)
        for kind, item in ((self.client.secrets, f"{name}-secret"), (self.client.configs, f"{name}-gate")):
            try:
                kind.get(item).remove()
            except NotFound:
                pass
            except DockerException as exc:  # the sweeps at the run's end and the next run's try again
                log.warning("swarm provider: %s not removed: %s", item, exc)

    def _sweep(self, labels: dict[str, str], also: Callable[[dict[str, str]], bool] = lambda _: True) -> None:
        """Remove the gate secrets and configs with ``labels`` (and for which ``also`` holds)
        whose service is gone: what a service removed by hand or a crashed worker left."""
        try:
            services = {str(s.name) for s in self._labelled({})}
            filters = {"label": [f"{LABEL}=1", *(f"{k}={v}" for k, v in labels.items())]}
            for kind in (self.client.secrets, self.client.configs):
                for item in kind.list(filters=filters):
                    found = item.attrs["Spec"].get("Labels") or {}
                    if found.get(SERVICE_LABEL) not in services and also(found):
                        try:
                            item.remove()
                        except NotFound:
                            pass
        except DockerException as exc:
            log.warning("swarm provider: gate secrets and configs not swept: %s", exc)


def gate_routes(ports: tuple[int, ...] | list[int]) -> dict[int, int]:
    """The gate's port for each guest port, in the order the snapshot lists them."""
    return {FIRST_GATE_PORT + i: port for i, port in enumerate(ports)}


def factory(owner: str, worker: str, **options: Any) -> SwarmProvider:
    """One provider per pytest worker; the ``providers`` registry entry calls it."""
    return SwarmProvider(owner, worker, **options)

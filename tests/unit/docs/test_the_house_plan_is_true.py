"""The house plan (docs/architecture.md) lists what the code defines, and each list is true.

Every list the plan marks with ``<!-- checked: NAME -->`` (a table, or a fenced block for the
layout) is read here and compared with the code: the folders on disk, the models, the
import-linter contracts, mypy's stricter sets, the domain events and their subscribers, the
Celery queues, routes, tasks and beat entries, the WebSocket paths and frames. A change that
makes one of them false fails here until the plan says what the code now does.
"""

from __future__ import annotations

import dataclasses
import importlib
import re
import subprocess
import tomllib
from pathlib import Path
from typing import Any

import pytest
from django.apps import apps
from django.conf import settings

from config.asyncapi import document
from config.celery import app as celery_app
from config.routing import websocket_urlpatterns
from core import bus

ROOT = Path(__file__).resolve().parents[3]
PLAN = ROOT / "docs" / "architecture.md"
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
CONTRACTS = PYPROJECT["tool"]["importlinter"]["contracts"]


def checked(name: str, plan: str | None = None) -> list[list[str]]:
    """The rows of the plan's list marked ``<!-- checked: name -->``: a table's cells
    (header and rule left out, backticks dropped), or a fenced block's lines."""
    lines = (PLAN.read_text(encoding="utf-8") if plan is None else plan).splitlines()
    marker = f"<!-- checked: {name} -->"
    assert lines.count(marker) == 1, f"the plan has no single list marked {marker}"
    following = iter(lines[lines.index(marker) + 1 :])
    first = next(following)
    if first.startswith("```"):
        block = []
        for line in following:
            if line.startswith("```"):
                return [[line] for line in block]
            block.append(line)
        raise AssertionError(f"the block marked {marker} is not closed")
    table = [first]
    for line in following:
        if not line.startswith("|"):
            break
        table.append(line)
    return [
        [cell.strip().replace("`", "") for cell in row.strip().strip("|").split("|")]
        for row in table[2:]
    ]


def names(cell: str) -> set[str]:
    return {name.strip() for name in cell.split(",") if name.strip()}


def project_apps() -> list[Any]:
    return [config for config in apps.get_app_configs() if Path(config.path).parent == ROOT]


def test_the_layout_names_every_folder_of_the_repository() -> None:
    tracked = subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.splitlines()
    on_disk = {path.split("/")[0] for path in tracked if "/" in path and path[0] != "."}

    described = {
        row[0].split()[0].rstrip("/")
        for row in checked("layout")
        if row[0].strip() and not row[0].startswith(" ")
    }

    assert described == on_disk


def test_the_models_are_those_of_each_app() -> None:
    models = {
        config.name: {model.__name__ for model in config.get_models()} for config in project_apps()
    }

    assert {app: names(listed) for app, listed in checked("models")} == models


def test_the_layers_are_the_import_contracts_and_every_app_has_its_place() -> None:
    layered = {
        contract["name"]: [names(layer.replace(":", ",")) for layer in contract["layers"]]
        for contract in CONTRACTS
        if contract["type"] == "layers"
    }
    described = {
        name: [names(layer.replace(":", ",")) for layer in layers.split(">")]
        for name, layers in checked("layers")
    }
    not_packages = {"tests", "bench", "scripts"}
    packages = {folder.name for folder in ROOT.iterdir() if (folder / "__init__.py").is_file()}
    django_apps = {config.name for config in project_apps()} - {"core"}

    assert described == layered
    assert set(PYPROJECT["tool"]["importlinter"]["root_packages"]) == packages - not_packages
    apps_layers = layered["No app imports a higher one"]
    assert set().union(*apps_layers) == django_apps


def test_the_forbidden_imports_are_the_import_contracts() -> None:
    forbidden = {
        contract["name"]: (
            set(contract["source_modules"]),
            set(contract["forbidden_modules"]),
            set(contract.get("ignore_imports", [])),
        )
        for contract in CONTRACTS
        if contract["type"] == "forbidden"
    }
    # Imports allowed by name are parted by ";", each with its reason in brackets.
    described = {
        name: (
            names(modules),
            names(banned),
            {re.sub(r"\s*\(.*\)$", "", allowed).strip() for allowed in by_name.split(";")} - {""},
        )
        for name, modules, banned, by_name in checked("forbidden")
    }

    assert described == forbidden


def test_the_stricter_typing_sets_are_mypys() -> None:
    overrides = PYPROJECT["tool"]["mypy"]["overrides"]
    in_code = {
        "strict" if override.get("disallow_untyped_calls") else "typed": set(override["module"])
        for override in overrides
        if override.get("disallow_untyped_defs")
    }

    assert {kind: names(modules) for kind, modules in checked("typing")} == in_code
    assert len(in_code) == len(overrides), "an override the plan does not describe"


def _dataclasses_of(module_name: str) -> list[type[Any]]:
    module = importlib.import_module(module_name)
    return [
        value
        for value in vars(module).values()
        if isinstance(value, type)
        and dataclasses.is_dataclass(value)
        and value.__module__ == module_name
    ]


def domain_events() -> set[type[Any]]:
    """The dataclasses of ``core.bus`` and of every app's ``events``, less those that are
    only parts of another (a round's ``MatchReady`` inside ``MatchesReady``)."""
    found: list[type[Any]] = _dataclasses_of("core.bus")
    for config in project_apps():
        if (Path(config.path) / "events.py").is_file():
            found += _dataclasses_of(f"{config.name}.events")
    parts = {
        part
        for part in found
        for whole in found
        if whole is not part
        and any(
            re.search(rf"\b{part.__name__}\b", str(field.type))
            for field in dataclasses.fields(whole)
        )
    }
    return set(found) - parts


def _name(thing: Any) -> str:
    return f"{thing.__module__}.{thing.__qualname__}"


def test_every_domain_event_is_listed_with_the_handlers_subscribed_to_it() -> None:
    subscribed = bus.subscriptions()
    events = domain_events() | set(subscribed)
    in_code = {
        _name(event): {_name(handler) for handler in subscribed.get(event, ())} for event in events
    }

    described = {event: names(handlers) for event, _, handlers in checked("events")}

    assert described == in_code


def test_the_queues_are_the_celery_apps() -> None:
    queues = {queue.name for queue in celery_app.conf.task_queues}

    assert {row[0] for row in checked("queues")} == queues
    assert settings.CELERY_TASK_DEFAULT_QUEUE in queues


def test_the_routes_are_the_celery_apps_in_their_order() -> None:
    routes = [
        [pattern, route["queue"], str(route.get("priority", ""))]
        for pattern, route in celery_app.conf.task_routes.items()
    ]

    assert checked("routes") == routes


def test_every_registered_task_is_listed_with_the_queue_it_goes_to() -> None:
    celery_app.loader.import_default_modules()
    tasks = []
    for name in sorted(celery_app.tasks):
        if name.startswith("celery."):
            continue
        route = celery_app.amqp.router.route({}, name)
        tasks.append([name, route["queue"].name, str(route.get("priority") or "")])

    assert checked("tasks") == tasks


def test_the_beat_entries_are_the_schedule() -> None:
    schedule = {
        entry: (options["task"], float(options["schedule"]))
        for entry, options in settings.CELERY_BEAT_SCHEDULE.items()
    }

    described = {row[0]: (row[1], float(row[2])) for row in checked("beat")}

    assert described == schedule


def _path(address: str) -> str:
    """``/ws/matches/{match_id}/`` and ``ws/matches/<id:match_id>/`` as the plan writes them."""
    address = re.sub(r"\{(\w+)\}", r"<\1>", address)
    return "/" + re.sub(r"<\w+:(\w+)>", r"<\1>", address).lstrip("/")


def sockets_in_code() -> dict[str, tuple[str, set[str], set[str]]]:
    asyncapi = document()
    frames: dict[str, dict[str, set[str]]] = {}
    for operation in asyncapi["operations"].values():
        channel = operation["channel"]["$ref"].split("/")[-1]
        # The server "receive"s nothing: the document speaks for the client, who receives
        # what the server sends.
        way = "sends" if operation["action"] == "receive" else "takes"
        for message in operation["messages"]:
            name = asyncapi["components"]["messages"][message["$ref"].split("/")[-1]]["name"]
            frames.setdefault(channel, {"sends": set(), "takes": set()})[way].add(name)
    documented = {
        _path(channel["address"]): frames[key] for key, channel in asyncapi["channels"].items()
    }
    routed = {
        _path(str(route.pattern)): _name(route.callback.consumer_class)
        for route in websocket_urlpatterns
    }
    assert set(documented) == set(routed), "the AsyncAPI document and the routes differ"
    return {
        path: (consumer, documented[path]["sends"], documented[path]["takes"])
        for path, consumer in routed.items()
    }


def test_the_socket_paths_consumers_and_frames_are_the_routes_and_asyncapi() -> None:
    described = {
        path: (consumer, names(sends), names(takes))
        for path, consumer, sends, takes in checked("sockets")
    }

    assert described == sockets_in_code()


@pytest.mark.parametrize(
    ("plan", "rows"),
    [
        ("x\n<!-- checked: t -->\n| a | b |\n|---|---|\n| `c` | d, e |\n\nmore", [["c", "d, e"]]),
        ("<!-- checked: t -->\n```\nx/  y\n   z\n```\n", [["x/  y"], ["   z"]]),
    ],
)
def test_a_marked_list_is_read_as_its_rows(plan: str, rows: list[list[str]]) -> None:
    assert checked("t", plan) == rows

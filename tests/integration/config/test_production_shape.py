"""docker-compose.yml runs the shape the benchmarks and the fault suite measure: every
Crawford process through scripts/serve with deploy/crawford.env, the same files bench/shape.py
starts its processes with, and the "scale" profile's nginx and PgBouncer from deploy/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from bench.shape import ENV_FILE, NGINX_TEMPLATE, PGBOUNCER_ENV, deployment_env

ROOT = Path(__file__).resolve().parents[3]


def compose() -> dict[str, Any]:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def crawford_services() -> dict[str, dict[str, Any]]:
    return {
        name: service
        for name, service in compose()["services"].items()
        if service.get("image") == "crawford:latest"
    }


def test_every_crawford_process_starts_through_scripts_serve_with_the_deployment_settings() -> None:
    services = crawford_services()

    commands = {name: service["command"] for name, service in services.items()}

    assert all(command[0] == "scripts/serve" for command in commands.values()), commands
    assert all(service["env_file"] == "deploy/crawford.env" for service in services.values())
    assert ENV_FILE == ROOT / "deploy" / "crawford.env"


def test_compose_runs_the_web_service_a_worker_for_every_queue_beat_and_the_migrations() -> None:
    commands = [service["command"][1:] for service in crawford_services().values()]

    assert ["web", "8000"] in commands
    assert ["beat"] in commands
    assert ["migrate"] in commands
    queues = {command[1] for command in commands if command[0] == "worker"}
    assert queues == {"default", "analysis", "review"}


def test_the_web_processes_use_a_bounded_pool_and_several_processes() -> None:
    settings = deployment_env()

    assert int(settings["WEB_WORKERS"]) >= 2
    assert int(settings["DB_POOL_SIZE"]) >= 1
    serve = (ROOT / "scripts" / "serve").read_text()
    assert '--workers "${WEB_WORKERS' in serve
    assert "export DB_CONN_MAX_AGE=0" in serve


def test_the_scale_profile_puts_nginx_and_pgbouncer_from_deploy_in_front() -> None:
    services = compose()["services"]

    assert services["proxy"]["profiles"] == ["scale"]
    assert "./deploy/nginx:/etc/nginx/templates:ro" in services["proxy"]["volumes"]
    assert NGINX_TEMPLATE.parent == ROOT / "deploy" / "nginx"
    assert services["pgbouncer"]["env_file"] == "deploy/pgbouncer.env"
    assert PGBOUNCER_ENV == ROOT / "deploy" / "pgbouncer.env"
    assert deployment_env(PGBOUNCER_ENV)["POOL_MODE"] == "transaction"
    scale = deployment_env(ROOT / "deploy" / "scale.env")
    assert scale["CRAWFORD_DATABASE_HOST"] == "pgbouncer"
    assert services["web-2"]["command"] == ["scripts/serve", "web", "8000"]

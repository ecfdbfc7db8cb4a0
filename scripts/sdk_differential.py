#!/usr/bin/env python3
"""Differential test of `handoff-inspector migrate` against the official A2A SDK converter.

Generates v0.3 objects of every kind from the SDK's own pydantic models (a walk over
`model_json_schema()` driven by a seeded random generator): Task, Message, Artifact, both
stream events, push configs, Agent Cards (all five security-scheme types, several
interfaces), every JSON-RPC request and success response of the v0.3 methods, JSON-RPC
error responses, and the HTTP+JSON/REST dialect of the core objects (the SDK's own v0.3
ProtoJSON, one in seven with proto field names); one JSON-RPC object in seven has
snake_case member names, which the SDK's models read too. Each is converted with
a2a-sdk==1.3.0 (`a2a.compat.v0_3.conversions`, `proto_utils`, the v1.0 server's error
builder) and with our `migrate --lines` (one process per kind and direction), both ways:
v1.0 -> v0.3 starts from the SDK's own v1.0 output. Both sides are normalized alike
(ProtoJSON default folding, number types) and the script fails on any difference that the
short, reasoned allow-list of SDK quirks (`QUIRKS`) does not explain; our v0.3 output must
also pass the SDK's v0.3 model, our v1.0 output a strict ProtoJSON parse as the v1.0 message
(unknown fields rejected), and where the SDK refuses to convert back to v0.3 ours must
refuse too (exit 1). A share of the objects is written as real files write them (`Mutator`:
v0.2-style part `type`, timestamps at an offset or with `.000`, JSON-RPC requests without a
usable `id`, cards that speak only v1.0 or add a v1.0 interface, REST ids and names written
as `""`, REST push config names with more after the config id or an empty task id: where the
SDK's reader raises on a name, ours must name it in an error), and the project's own
real-shaped objects (`sdk_differential_objects.json`, written from the shapes of the
specification's examples and the SDKs' documented objects) go through both sides too.

The script makes its own virtual environment (target/sdk-differential/venv) and installs the
pinned SDK (and the pinned versions of what shapes the objects: `PINNED`) into it the first
time; it needs PyPI then, and nothing else.

    python3 scripts/sdk_differential.py                # 6,000 objects, seed 22
    python3 scripts/sdk_differential.py --count 30000  # more
    python3 scripts/sdk_differential.py --table        # print the docs table
    python3 scripts/sdk_differential.py --write-docs   # write it into docs/migrate.md

With the default seed and count the table must equal the one in docs/migrate.md (the
script fails otherwise), so the published figures are the ones this run makes.

Exit 0 when every difference is allowed, 1 otherwise (the first few are printed), 2 when
the environment cannot be made.
"""

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from typing import Callable, Optional
from pathlib import Path

import differential_common

SDK = "a2a-sdk==1.3.0"
# What shapes the generated objects and both sides' JSON, pinned as the table was made with
# them: another pydantic writes another `model_json_schema()`, so other objects at the same
# seed (the rest of the SDK's dependencies resolve freely).
PINNED = [
    SDK,
    "pydantic==2.14.4",
    "pydantic_core==2.50.5",
    "protobuf==7.36.2",
    "proto-plus==1.29.0",
    "googleapis-common-protos==1.76.0",
]
ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / "target" / "sdk-differential" / "venv"


def ensure_venv():
    """Re-executes this script inside its venv (made and filled on first use)."""
    differential_common.ensure_venv(VENV, PINNED, __file__)


# ---------------------------------------------------------------------------------------
# Generation: values for a JSON schema, from the SDK's pydantic models.


class Gen:
    def __init__(self, seed):
        self.rng = random.Random(seed)

    def word(self):
        # "" too: ProtoJSON leaves an empty id out, and the object must still be recognised.
        return self.rng.choice(["a", "t1", "ctx-9", "Zürich", "x y", "m-42", "hello", "ü", ""])

    def timestamp(self):
        r = self.rng
        base = f"2025-0{r.randint(1, 9)}-1{r.randint(0, 9)}T1{r.randint(0, 9)}:2{r.randint(0, 9)}:3{r.randint(0, 9)}"
        digits = r.choice([0, 0, 1, 2, 3, 3, 5, 6, 9])
        frac = ("." + "".join(str(r.randint(0, 9)) for _ in range(digits))) if digits else ""
        zone = r.choice(["Z", "Z", "+00:00", "+02:00", "-05:30"])
        return base + frac + zone

    def string(self, name):
        r = self.rng
        lowered = (name or "").lower()
        if lowered == "bytes":
            import base64

            return base64.b64encode(bytes(r.randint(0, 255) for _ in range(r.randint(1, 9)))).decode()
        if lowered == "timestamp":
            return self.timestamp()
        if lowered.endswith("url") or lowered == "uri":
            return f"https://h{r.randint(0, 9)}.example/{self.word().replace(' ', '')}"
        if lowered in ("mimetype", "mediatype"):
            return r.choice(["text/plain", "application/json", "image/png"])
        if lowered in ("protocolversion",):
            return "0.3.0"
        if lowered in ("transport", "preferredtransport"):
            return r.choice(["JSONRPC", "GRPC", "HTTP+JSON"])
        return self.word()

    def any_json(self, depth=0):
        r = self.rng
        pick = r.randint(0, 6 if depth < 2 else 3)
        if pick == 0:
            return r.randint(-5, 1000)
        if pick == 1:
            return self.word()
        if pick == 2:
            return r.choice([True, False])
        if pick == 3:
            return round(r.uniform(-10, 10), 2)
        if pick == 4:
            return [self.any_json(depth + 1) for _ in range(r.randint(0, 2))]
        return {self.word(): self.any_json(depth + 1) for _ in range(r.randint(0, 3))}

    def value(self, schema, defs, name=None, depth=0):
        r = self.rng
        if "$ref" in schema:
            ref = schema["$ref"].rsplit("/", 1)[-1]
            return self.value(defs[ref], defs, name, depth + 1)
        if "const" in schema:
            return schema["const"]
        if "enum" in schema:
            return r.choice(schema["enum"])
        for key in ("anyOf", "oneOf"):
            if key in schema:
                options = [s for s in schema[key] if s.get("type") != "null"]
                return self.value(r.choice(options), defs, name, depth + 1)
        if "allOf" in schema:
            return self.value(schema["allOf"][0], defs, name, depth + 1)
        kind = schema.get("type")
        if kind == "null":
            return None
        if kind == "object" and "properties" in schema:
            out = {}
            required = set(schema.get("required", []))
            for prop, sub in schema["properties"].items():
                # Optional members thin out with depth (down to a security scheme's OAuth
                # flows, nine levels into a card response) so objects stay small.
                if prop in required or (depth < 10 and r.random() < 0.45 * 0.85 ** max(0, depth - 3)):
                    out[prop] = self.value(sub, defs, prop, depth + 1)
            return out
        if kind == "object":
            extra = schema.get("additionalProperties")
            if isinstance(extra, dict) and extra.get("type") == "array":
                return {self.word(): [self.word() for _ in range(r.randint(0, 2))] for _ in range(r.randint(0, 2))}
            if isinstance(extra, dict) and extra.get("type") == "string":
                return {self.word(): self.word() for _ in range(r.randint(0, 2))}
            if isinstance(extra, dict) and extra:
                return {self.word(): self.value(extra, defs, None, depth + 1) for _ in range(r.randint(0, 2))}
            return {self.word(): self.any_json(1) for _ in range(r.randint(0, 3))}
        if kind == "array":
            items = schema.get("items", {})
            low = 1 if name in ("parts",) else 0
            return [self.value(items, defs, name, depth + 1) for _ in range(r.randint(low, max(low, 2 if depth < 5 else 0)))]
        if kind == "string":
            return self.string(name)
        if kind == "integer":
            if name == "code":
                # A generic JSON-RPC error: a reserved code or a server's own.
                return r.choice([-32000, -32099, -32600, -32601, -32602, -32603, 1, 404])
            return r.randint(0, 50)
        if kind == "number":
            return round(r.uniform(0, 50), 2)
        if kind == "boolean":
            return r.choice([True, False])
        return self.any_json(1)


def snake(name):
    return "".join("_" + c.lower() if c.isupper() else c for c in name)


def snake_case(value):
    """The object with its field names as a2a-python's pydantic models also read them (and
    as ProtoJSON's proto names): `messageId` -> `message_id`; the sender's own maps
    (`metadata`, `data`) keep their keys."""
    if isinstance(value, dict):
        return {
            snake(key): (item if key in ("metadata", "data") else snake_case(item))
            for key, item in value.items()
        }
    if isinstance(value, list):
        return [snake_case(item) for item in value]
    return value


# ---------------------------------------------------------------------------------------
# What the world writes beside the generated objects: each class measured on real A2A files
# (v0.2-style members, timestamps at an offset or with `.000`, JSON-RPC requests without a
# usable `id`, cards that speak only v1.0), put into a share of the objects by their own
# seeded generator, so the generated stream above stays the same.


class Mutator:
    def __init__(self, seed):
        self.rng = random.Random(seed * 7919 + 1)
        self.counts = {}

    def hit(self, share, name):
        if self.rng.random() >= share:
            return False
        self.counts[name] = self.counts.get(name, 0) + 1
        return True

    def forward(self, obj):
        """A v0.3 input as real files write it."""
        if self.hit(0.1, "v0.2-style part `type`"):
            each_part(obj, lambda part: part.setdefault("type", part.get("kind", "text")))
        if self.hit(0.15, "timestamp at an offset or with .000"):
            self.timestamps(obj)
        return obj

    def reverse(self, case, obj):
        """A v1.0 input (the SDK's own output) as real files write it."""
        if self.hit(0.15, "timestamp at an offset or with .000 (back)"):
            self.timestamps(obj)
        if case.kind == "json-rpc-request" and isinstance(obj, dict):
            if self.hit(0.06, "request without id"):
                obj.pop("id", None)
            elif self.hit(0.04, "request with an object id"):
                obj["id"] = {"bad": "type"}
        card = card_of(obj) if case.name.startswith(("AgentCard", "agent/getAuthenticatedExtendedCard result")) else None
        if card and isinstance(card.get("supportedInterfaces"), list):
            if self.hit(0.08, "card speaking only v1.0"):
                for interface in card["supportedInterfaces"]:
                    interface["protocolVersion"] = "1.0"
            elif self.hit(0.08, "card with a v1.0 interface beside"):
                card["supportedInterfaces"].append({"url": "https://v1.example/a2a", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"})
        return obj

    # REST members that hold an id or a name, by case: ProtoJSON writers that write defaults
    # write them as "" (the SDK reads "" and absent alike).
    REST_IDS = {
        "Task": ["id", "contextId"],
        "Message": ["messageId", "contextId", "taskId"],
        "Artifact": ["artifactId", "name"],
        "TaskStatusUpdateEvent": ["taskId", "contextId"],
        "TaskArtifactUpdateEvent": ["taskId", "contextId"],
        "AgentCard": ["name", "description", "version"],
    }

    def rest(self, case, written):
        """A REST object (the SDK's own ProtoJSON) as real files write it; None when left
        alone."""
        if not isinstance(written, dict):
            return None
        edited = json.loads(json.dumps(written))
        proto_names = any("_" in key for key in edited)
        if case.name == "TaskPushNotificationConfig" and isinstance(edited.get("name"), str):
            name = edited["name"]
            if self.hit(0.12, "REST config name with more after the config id"):
                edited["name"] = name + self.rng.choice(["/extra", "/", "/a/b"])
                return edited
            if self.hit(0.04, "REST config name with an empty task id"):
                edited["name"] = "tasks//" + name.split("/", 2)[-1]
                return edited
        ids = self.REST_IDS.get(case.name, [])
        if ids and self.hit(0.1, "REST ids and names written as \"\""):
            for key in ids:
                key = snake(key) if proto_names else key
                edited.setdefault(key, "")
            return edited
        return None

    def timestamps(self, value):
        """Each RFC 3339 `Z` timestamp rewritten as the same instant at an offset, or with
        `.000` (ProtoJSON parsers read both; the canonical text is UTC `Z`, 0/3/6/9 digits)."""
        from datetime import datetime, timedelta, timezone

        def rewrite(text):
            try:
                instant = datetime.fromisoformat(text.replace("Z", "+00:00"))
            except ValueError:
                return text
            if self.rng.random() < 0.5:
                zone = timezone(timedelta(hours=self.rng.choice([-5, 2, 9]), minutes=self.rng.choice([0, 30])))
                local = instant.astimezone(zone)
                return local.isoformat(timespec="milliseconds")
            if instant.microsecond:
                return text
            return instant.strftime("%Y-%m-%dT%H:%M:%S") + ".000Z"

        walk_timestamps(value, rewrite)


def each_part(value, edit):
    if isinstance(value, dict):
        for key, item in value.items():
            if key in ("parts", "content") and isinstance(item, list):
                for part in item:
                    if isinstance(part, dict):
                        edit(part)
            elif key not in ("metadata", "data"):
                each_part(item, edit)
    elif isinstance(value, list):
        for item in value:
            each_part(item, edit)


def walk_timestamps(value, rewrite):
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "timestamp" and isinstance(item, str):
                value[key] = rewrite(item)
            elif key not in ("metadata", "data"):
                walk_timestamps(item, rewrite)
    elif isinstance(value, list):
        for item in value:
            walk_timestamps(item, rewrite)


# ---------------------------------------------------------------------------------------
# Normalization, applied to both sides alike.


def fold(value):
    """ProtoJSON default folding: members holding a proto3 default ("", 0, false, [], {},
    null, and an enum's zero value `*_UNSPECIFIED`) are left out by MessageToDict and mean
    the same as absent; numbers are compared as numbers (Struct holds doubles, so 1 and 1.0
    are one value)."""
    if isinstance(value, dict):
        out = {}
        for key, item in value.items():
            item = fold(item)
            if item in ("", 0, False, None, [], {}) and not isinstance(item, float):
                continue
            if key in ("state", "role") and isinstance(item, str) and item.endswith("_UNSPECIFIED"):
                continue
            out[key] = item
        return out
    if isinstance(value, list):
        return [fold(item) for item in value]
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


# ---------------------------------------------------------------------------------------
# The SDK's side: one case per kind, with its converters in both directions.


def dump(model):
    return model.model_dump(mode="json", by_alias=True, exclude_none=True)


def to_dict(message):
    from google.protobuf.json_format import MessageToDict

    return MessageToDict(message)


def parse(obj, message):
    from google.protobuf.json_format import ParseDict

    return ParseDict(obj, message())


class NoForm(Exception):
    """The SDK has no converted form for this input (counted as "SDK raised")."""


@dataclass
class Case:
    name: str
    model: type  # the v0.3 model: generates the inputs and judges our v0.3 output
    kind: str  # `migrate --kind`
    forward: Callable  # v0.3 JSON -> the SDK's v1.0 JSON
    reverse: Optional[Callable] = None  # v1.0 JSON -> the SDK's v0.3 JSON
    rest: Optional[Callable] = None  # REST row: v0.3 JSON-RPC JSON -> (REST JSON, SDK's v1.0)
    choices: list = field(default_factory=list)  # forward
    back_choices: list = field(default_factory=list)  # reverse
    # Forward choices that depend on the object (run in groups): the SDK's pick at a
    # documented choice point that differs per object.
    object_choices: Optional[Callable] = None
    # The SDK's REST reader alone (REST JSON -> its v1.0), for REST objects edited after
    # the SDK wrote them (`Mutator.rest`).
    rest_read: Optional[Callable] = None
    # The v1.0 message (google.protobuf class) our forward output (`strict_part` of it)
    # must parse as with ProtoJSON's strict parser: unknown fields rejected.
    v10: Optional[type] = None
    strict_part: Callable = lambda value: value


def strict_v10(case, result):
    """None when a strict v1.0 ProtoJSON parse (unknown fields rejected, as the spec warns
    strict parsers do) reads our forward output as the case's v1.0 message; else why not."""
    from google.protobuf.json_format import Parse

    if case.v10 is None:
        return None
    part = case.strict_part(result)
    if part is None:
        return None
    try:
        Parse(json.dumps(part), case.v10(), ignore_unknown_fields=False)
        return None
    except Exception as error:  # json_format.ParseError, said in one line
        return str(error).splitlines()[0][:160]


def object_case(name, model, kind, to_core, to_compat, message, to_proto=None, from_proto=None, p03=None):
    def forward(obj):
        return to_dict(to_core(model.model_validate(obj)))

    def reverse(obj):
        return dump(to_compat(parse(obj, message)))

    rest = None
    if to_proto:

        def rest_read(written):
            # The SDK's own REST reading: ProtoJSON -> v0.3 proto -> v0.3 model -> v1.0.
            return to_dict(to_core(from_proto(parse(written, p03))))

        def rest(obj, proto_names):
            from google.protobuf.json_format import MessageToDict

            compat = to_proto(model.model_validate(obj))
            written = MessageToDict(compat, preserving_proto_field_name=proto_names)
            # What the SDK's reader raises on (a resource name with an empty id) is kept as
            # the expected side, so ours is given the REST object it wrote all the same.
            return written, sdk_or_error(rest_read, written)

        case = Case(name, model, kind, forward, reverse, rest, v10=message)
        case.rest_read = rest_read
        return case

    return Case(name, model, kind, forward, reverse, rest, v10=message)


# The documented choice points where the SDK takes the other option: the comparison runs
# with the option the SDK takes (docs/migrate.md, "SDK differences").
KEEP_SIGNATURES = ["signatures=keep"]  # the SDK copies card signatures that no longer verify
BARE_TASK_RESULT = ["task-result=get"]  # a tasks/get or tasks/cancel result is a bare Task
ALWAYS_ERROR_INFO = ["error-data=always"]  # every A2A error gets an ErrorInfo naming it


OAUTH_FLOW_ORDER = ["authorizationCode", "clientCredentials", "implicit", "password"]


def sdk_oauth_flow(obj):
    """to_core_oauth_flows sets each v0.3 flow in turn on v1.0's one-of, so the last one
    present wins: the same as `--choice oauth-flow=FLOW` for that flow. A card whose
    several multi-flow schemes end in different flows has no one choice (raised)."""
    card = card_of(obj)
    schemes = card.get("securitySchemes") or card.get("security_schemes") or {}
    kept = set()
    for scheme in schemes.values():
        flows = scheme.get("flows") if isinstance(scheme, dict) else None
        if not isinstance(flows, dict):
            continue
        present = [flow for flow in OAUTH_FLOW_ORDER if flow in flows or snake(flow) in flows]
        if len(present) > 1:
            kept.add(present[-1])
    if len(kept) > 1:
        raise NoForm(f"multi-flow schemes keep different flows ({sorted(kept)}): no single --choice oauth-flow")
    return [f"oauth-flow={kept.pop()}"] if kept else []


# v0.3 method -> v1.0 method: the SDK's v0.3 adapter (`jsonrpc_adapter.METHOD_TO_MODEL`) and
# its v1.0 dispatcher (`jsonrpc_dispatcher.METHOD_TO_MODEL`) name them; the pairing is the
# spec's (a2a-v03-to-v10.md, method renames).
METHODS = {
    "message/send": "SendMessage",
    "message/stream": "SendStreamingMessage",
    "tasks/get": "GetTask",
    "tasks/cancel": "CancelTask",
    "tasks/pushNotificationConfig/set": "CreateTaskPushNotificationConfig",
    "tasks/pushNotificationConfig/get": "GetTaskPushNotificationConfig",
    "tasks/pushNotificationConfig/list": "ListTaskPushNotificationConfigs",
    "tasks/pushNotificationConfig/delete": "DeleteTaskPushNotificationConfig",
    "tasks/resubscribe": "SubscribeToTask",
    "agent/getAuthenticatedExtendedCard": "GetExtendedAgentCard",
}


def request_case(name, model, to_core, to_compat, message):
    """A JSON-RPC request: the SDK converts its params; the envelope's method is renamed by
    the table above, and `jsonrpc` and `id` stay."""
    v03 = model.model_fields["method"].default

    def forward(obj):
        params = to_dict(to_core(model.model_validate(obj)))
        return {"jsonrpc": "2.0", "id": obj.get("id"), "method": METHODS[v03], "params": params}

    def reverse(obj):
        back = dump(to_compat(parse(obj.get("params", {}), message), obj.get("id")))
        # message/stream shares SendMessageRequest with message/send in the SDK: the
        # envelope's method is the one the object came with.
        back["method"] = v03
        return back

    return Case(name, model, "json-rpc-request", forward, reverse, v10=message, strict_part=lambda value: value.get("params", {}))


def response_case(name, model, to_core, to_compat, choices=(), v10=None):
    """A JSON-RPC success response: the SDK converts its result; `jsonrpc` and `id` stay."""

    def forward(obj):
        result = to_core(model.model_validate(obj))
        return {"jsonrpc": "2.0", "id": obj.get("id"), "result": result}

    def reverse(obj):
        return {"jsonrpc": "2.0", "id": obj.get("id"), "result": to_compat(obj.get("result"))}

    back = [choice for choice in choices if choice in KEEP_SIGNATURES]
    return Case(
        name, model, "json-rpc-response", forward, reverse, choices=list(choices), back_choices=back,
        v10=v10, strict_part=lambda value: value.get("result"),
    )


def error_forward(obj):
    """A v0.3 error response as the SDK carries it to v1.0: its v0.3 client reads the code
    into an A2AError (`jsonrpc_transport._create_jsonrpc_error`), its v1.0 server writes that
    error (`response_helpers.build_error_response`: code, message, data [ErrorInfo])."""
    from a2a.server.request_handlers.response_helpers import build_error_response
    from a2a.utils.errors import JSON_RPC_ERROR_CODE_MAP

    error = obj["error"]
    by_code = {code: kind for kind, code in JSON_RPC_ERROR_CODE_MAP.items()}
    kind = by_code.get(error.get("code"))
    if kind is None:
        raise NoForm(f"no A2AError for code {error.get('code')}: the SDK's client raises A2AClientError")
    return build_error_response(obj.get("id"), kind(error.get("message", "Unknown Error")))


def cases():
    from a2a.compat.v0_3 import a2a_v0_3_pb2 as p3
    from a2a.compat.v0_3 import conversions as c
    from a2a.compat.v0_3 import types as t
    from a2a.compat.v0_3.proto_utils import FromProto, ToProto
    from a2a.types import a2a_pb2 as pb

    core = [
        ("Task", t.Task, "task", c.to_core_task, c.to_compat_task, pb.Task, ToProto.task, FromProto.task, p3.Task),
        ("Message", t.Message, "message", c.to_core_message, c.to_compat_message, pb.Message, ToProto.message, FromProto.message, p3.Message),
        ("Artifact", t.Artifact, "artifact", c.to_core_artifact, c.to_compat_artifact, pb.Artifact, ToProto.artifact, FromProto.artifact, p3.Artifact),
        (
            "TaskStatusUpdateEvent", t.TaskStatusUpdateEvent, "status-update-event",
            c.to_core_task_status_update_event, c.to_compat_task_status_update_event, pb.TaskStatusUpdateEvent,
            ToProto.task_status_update_event, FromProto.task_status_update_event, p3.TaskStatusUpdateEvent,
        ),
        (
            "TaskArtifactUpdateEvent", t.TaskArtifactUpdateEvent, "artifact-update-event",
            c.to_core_task_artifact_update_event, c.to_compat_task_artifact_update_event, pb.TaskArtifactUpdateEvent,
            ToProto.task_artifact_update_event, FromProto.task_artifact_update_event, p3.TaskArtifactUpdateEvent,
        ),
        (
            "TaskPushNotificationConfig", t.TaskPushNotificationConfig, "task-push-notification-config",
            c.to_core_task_push_notification_config, c.to_compat_task_push_notification_config,
            pb.TaskPushNotificationConfig, ToProto.task_push_notification_config,
            FromProto.task_push_notification_config, p3.TaskPushNotificationConfig,
        ),
        ("AgentCard", t.AgentCard, "agent-card", c.to_core_agent_card, c.to_compat_agent_card, pb.AgentCard, ToProto.agent_card, FromProto.agent_card, p3.AgentCard),
    ]
    out = [object_case(*row) for row in core]
    out[-1].choices = out[-1].back_choices = KEEP_SIGNATURES
    out[-1].object_choices = sdk_oauth_flow
    out += [
        request_case("message/send", t.SendMessageRequest, c.to_core_send_message_request, c.to_compat_send_message_request, pb.SendMessageRequest),
        request_case("message/stream", t.SendStreamingMessageRequest, c.to_core_send_message_request, c.to_compat_send_message_request, pb.SendMessageRequest),
        request_case("tasks/get", t.GetTaskRequest, c.to_core_get_task_request, c.to_compat_get_task_request, pb.GetTaskRequest),
        request_case("tasks/cancel", t.CancelTaskRequest, c.to_core_cancel_task_request, c.to_compat_cancel_task_request, pb.CancelTaskRequest),
        request_case(
            "tasks/pushNotificationConfig/set", t.SetTaskPushNotificationConfigRequest,
            c.to_core_create_task_push_notification_config_request,
            c.to_compat_create_task_push_notification_config_request, pb.TaskPushNotificationConfig,
        ),
        request_case(
            "tasks/pushNotificationConfig/get", t.GetTaskPushNotificationConfigRequest,
            c.to_core_get_task_push_notification_config_request,
            c.to_compat_get_task_push_notification_config_request, pb.GetTaskPushNotificationConfigRequest,
        ),
        request_case(
            "tasks/pushNotificationConfig/list", t.ListTaskPushNotificationConfigRequest,
            c.to_core_list_task_push_notification_config_request,
            c.to_compat_list_task_push_notification_config_request, pb.ListTaskPushNotificationConfigsRequest,
        ),
        request_case(
            "tasks/pushNotificationConfig/delete", t.DeleteTaskPushNotificationConfigRequest,
            c.to_core_delete_task_push_notification_config_request,
            c.to_compat_delete_task_push_notification_config_request, pb.DeleteTaskPushNotificationConfigRequest,
        ),
        request_case("tasks/resubscribe", t.TaskResubscriptionRequest, c.to_core_subscribe_to_task_request, c.to_compat_subscribe_to_task_request, pb.SubscribeToTaskRequest),
        request_case(
            "agent/getAuthenticatedExtendedCard", t.GetAuthenticatedExtendedCardRequest,
            c.to_core_get_extended_agent_card_request, c.to_compat_get_extended_agent_card_request,
            pb.GetExtendedAgentCardRequest,
        ),
    ]

    def send_result(m):
        return to_dict(c.to_core_send_message_response(t.SendMessageResponse(root=m)))

    def send_back(result):
        return dump(c.to_compat_send_message_response(parse(result, pb.SendMessageResponse)).root.result)

    def stream_back(result):
        return dump(c.to_compat_stream_response(parse(result, pb.StreamResponse)).result)

    def typed(to_core_obj, to_compat_obj, message):
        return (
            lambda m: to_dict(to_core_obj(m.result)),
            lambda result: dump(to_compat_obj(parse(result, message))),
        )

    extended_card = response_case(
        "agent/getAuthenticatedExtendedCard result", t.GetAuthenticatedExtendedCardSuccessResponse,
        *typed(c.to_core_agent_card, c.to_compat_agent_card, pb.AgentCard), choices=KEEP_SIGNATURES, v10=pb.AgentCard,
    )
    extended_card.object_choices = sdk_oauth_flow
    task_pair = typed(c.to_core_task, c.to_compat_task, pb.Task)
    config_pair = typed(c.to_core_task_push_notification_config, c.to_compat_task_push_notification_config, pb.TaskPushNotificationConfig)
    out += [
        response_case("message/send result", t.SendMessageSuccessResponse, send_result, send_back, v10=pb.SendMessageResponse),
        response_case("message/stream result", t.SendStreamingMessageSuccessResponse, lambda m: to_dict(c.to_core_stream_response(m)), stream_back, v10=pb.StreamResponse),
        response_case("tasks/get result", t.GetTaskSuccessResponse, *task_pair, choices=BARE_TASK_RESULT, v10=pb.Task),
        response_case("tasks/cancel result", t.CancelTaskSuccessResponse, *task_pair, choices=BARE_TASK_RESULT, v10=pb.Task),
        response_case("tasks/pushNotificationConfig/set result", t.SetTaskPushNotificationConfigSuccessResponse, *config_pair, v10=pb.TaskPushNotificationConfig),
        response_case("tasks/pushNotificationConfig/get result", t.GetTaskPushNotificationConfigSuccessResponse, *config_pair, v10=pb.TaskPushNotificationConfig),
        response_case(
            "tasks/pushNotificationConfig/list result", t.ListTaskPushNotificationConfigSuccessResponse,
            lambda m: to_dict(c.to_core_list_task_push_notification_config_response(t.ListTaskPushNotificationConfigResponse(root=m))),
            lambda result: dump(c.to_compat_list_task_push_notification_config_response(parse(result, pb.ListTaskPushNotificationConfigsResponse)).root)["result"],
            v10=pb.ListTaskPushNotificationConfigsResponse,
        ),
        # The delete result is null in both versions: only `--kind` (or the method it
        # answers) says it is an A2A response; it migrates to itself.
        response_case("tasks/pushNotificationConfig/delete result", t.DeleteTaskPushNotificationConfigSuccessResponse, lambda m: None, lambda result: None),
        extended_card,
        # The SDK has no v1.0 -> v0.3 converter for JSON-RPC errors outside its server.
        Case("error response", t.JSONRPCErrorResponse, "json-rpc-response", error_forward, choices=ALWAYS_ERROR_INFO),
    ]
    return out


# ---------------------------------------------------------------------------------------
# The allow-list: where SDK 1.3.0 differs from `migrate` on purpose (docs/migrate.md, "SDK
# differences", gives each its reason). Each takes (input, sdk, ours), normalizes the SDK's
# side where the quirk shows, and returns the quirk's name when it did.


def card_of(value):
    """The card itself, or the card a JSON-RPC result holds."""
    if isinstance(value, dict) and isinstance(value.get("result"), dict):
        return value["result"]
    return value if isinstance(value, dict) else {}


def interfaces(card):
    return card_of(card).get("supportedInterfaces", [])


def quirk_repeated_primary(obj, sdk, ours):
    """to_core_agent_card appends every additionalInterfaces entry after the primary, so a
    list that names the primary again repeats it; we keep one interface per endpoint."""
    listed = interfaces(sdk)
    seen, kept = set(), []
    for interface in listed:
        key = (interface.get("url"), interface.get("protocolBinding"))
        if key not in seen:
            seen.add(key)
            kept.append(interface)
    if len(kept) != len(listed):
        card_of(sdk)["supportedInterfaces"] = kept
        return "repeated primary interface"
    return None


def quirk_interface_version(obj, sdk, ours):
    """The SDK writes the card's protocolVersion ("0.3.0") on the first interface and "0.3"
    on the others; we write "0.3" (Major.Minor, as v1.0 wants) on every one
    (`--choice interface-protocol-version=card` copies the card's value instead)."""
    fired = False
    for interface in interfaces(sdk):
        version = interface.get("protocolVersion")
        if isinstance(version, str) and version.startswith("0.3.") and version != "0.3":
            interface["protocolVersion"] = "0.3"
            fired = True
    return "card protocolVersion on the first interface" if fired else None


def quirk_reverse_version(obj, sdk, ours):
    """Back to v0.3 the SDK takes the card's protocolVersion from its first interface ("0.3");
    we write the v0.3 release, "0.3.0"."""
    sdk, ours = card_of(sdk), card_of(ours)
    if sdk.get("protocolVersion") == "0.3" and ours.get("protocolVersion") == "0.3.0":
        sdk["protocolVersion"] = "0.3.0"
        return "card protocolVersion back to v0.3"
    return None


def quirk_double_base64(obj, sdk, ours):
    """The SDK's v0.3 REST dialect puts the JSON-RPC `bytes` text (already base64) into the
    proto `bytes` field, so its ProtoJSON holds base64 of base64, and its reader decodes
    once: its v1.0 `raw` is the input decoded once. ProtoJSON bytes are base64 of the
    bytes themselves, which `raw` carries as they are."""
    import base64

    fired = []

    def walk(want, got):
        if isinstance(want, dict) and isinstance(got, dict):
            for key, item in want.items():
                if key == "raw" and isinstance(item, str) and isinstance(got.get(key), str):
                    try:
                        once = base64.b64decode(got[key]).decode()
                    except Exception:
                        continue
                    if once == item and item != got[key]:
                        want[key] = got[key]
                        fired.append(key)
                else:
                    walk(item, got.get(key))
        elif isinstance(want, list) and isinstance(got, list):
            for want_item, got_item in zip(want, got):
                walk(want_item, got_item)

    walk(sdk, ours)
    return "REST file bytes base64 twice" if fired else None


def quirk_config_id_in_name(obj, sdk, ours):
    """A REST TaskPushNotificationConfig names its config in `name`
    (tasks/{task}/pushNotificationConfigs/{config}); the SDK reads the task id from it and
    drops the config id when the config object has none of its own. We keep it as `id`."""
    import re

    name = obj.get("name") if isinstance(obj, dict) else None
    # The SDK's own pattern (proto_utils.TASK_PUSH_CONFIG_NAME_MATCH), matched at the start.
    match = re.match(r"tasks/([^/]+)/pushNotificationConfigs/([^/]+)", name) if isinstance(name, str) else None
    if match and "id" not in sdk and ours.get("id") == match.group(2):
        sdk["id"] = ours["id"]
        return "config id only in name"
    return None


def quirk_error_info(obj, sdk, ours):
    """The SDK's v0.3 client keeps only an error's code and message (its v1.0 server writes
    the ErrorInfo with empty metadata); we carry v0.3 `data` into ErrorInfo's metadata. And
    an empty message becomes the error's default text in the SDK."""
    error = sdk.get("error") if isinstance(sdk, dict) else None
    if not isinstance(error, dict) or "data" not in error:
        return None
    ours_error = ours.get("error", {}) if isinstance(ours, dict) else {}
    if ours_error.get("message") == "" and obj.get("error", {}).get("message") == "":
        # An empty message: the SDK's A2AError falls back to its class's default text.
        error["message"] = ""
    sdk_info, ours_info = error["data"], ours_error.get("data")
    if (
        isinstance(ours_info, list)
        and len(ours_info) == len(sdk_info) == 1
        and sdk_info[0].get("metadata") == {}
        and {**ours_info[0], "metadata": {}} == sdk_info[0]
    ):
        error["data"] = ours_info
        return "v0.3 error data dropped"
    return None


QUIRKS = {
    ("AgentCard", "forward"): [quirk_repeated_primary, quirk_interface_version],
    ("agent/getAuthenticatedExtendedCard result", "forward"): [quirk_repeated_primary, quirk_interface_version],
    ("AgentCard", "reverse"): [quirk_reverse_version],
    ("agent/getAuthenticatedExtendedCard result", "reverse"): [quirk_reverse_version],
    ("error response", "forward"): [quirk_error_info],
}
REST_QUIRKS = [quirk_double_base64, quirk_config_id_in_name]


def allowed(name, direction, obj, sdk, ours, counts):
    """The SDK's side with every quirk that shows normalized away; each use is counted."""
    sdk = json.loads(json.dumps(sdk))
    rest = REST_QUIRKS if name.endswith(" (REST)") else []
    base = name.replace(" (REST)", "").replace(" (real-shaped)", "")
    for quirk in QUIRKS.get((base, direction), []) + rest:
        fired = quirk(obj, sdk, ours)
        if fired:
            counts[fired] = counts.get(fired, 0) + 1
    return sdk


# ---------------------------------------------------------------------------------------
# Our side.


def run_ours(binary, objects, to, choices, kind=None, source=None):
    with tempfile.NamedTemporaryFile("w", suffix=".ndjson", delete=False) as handle:
        for obj in objects:
            handle.write(json.dumps(obj) + "\n")
        path = handle.name
    try:
        args = [binary, "migrate", "--lines", "--to", to, path]
        if kind:
            args += ["--kind", kind]
        if source:
            args += ["--from", source]
        for choice in choices:
            args += ["--choice", choice]
        done = subprocess.run(args, capture_output=True, text=True)
        if done.returncode not in (0, 1):
            raise SystemExit(f"migrate failed ({done.returncode}): {done.stderr}")
        lines = [json.loads(line) for line in done.stdout.splitlines()]
    finally:
        os.unlink(path)
    by_line = {line["line"]: line for line in lines}
    return [by_line.get(index + 1, {"error": "no output line"}) for index in range(len(objects))]


def run_grouped(binary, objects, to, case, choices, kind=None, source=None):
    """run_ours, with each object's own choices (case.object_choices) added: one run per
    distinct set. An object the SDK has no single choice for gets no output line."""
    if not case.object_choices or to != "1.0":
        return run_ours(binary, objects, to, choices, kind, source)
    groups = {}
    for index, obj in enumerate(objects):
        try:
            extra = tuple(case.object_choices(obj))
        except NoForm:
            continue
        groups.setdefault(extra, []).append(index)
    out = [{"error": "no single choice"} for _ in objects]
    for extra, indexes in groups.items():
        lines = run_ours(binary, [objects[i] for i in indexes], to, choices + list(extra), kind, source)
        for index, line in zip(indexes, lines):
            out[index] = line
    return out


def v03_valid(model, obj):
    try:
        model.model_validate(obj)
        return None
    except Exception as error:  # pydantic's ValidationError, said in one line
        return str(error).splitlines()[0]


def sdk_or_error(convert, obj):
    try:
        return convert(obj)
    except Exception as error:  # the SDK raised: counted, not compared
        return {"__sdk_error__": f"{type(error).__name__}: {error}"}


def generate(gen, case, count):
    """`count` inputs the SDK's v0.3 model accepts, as it writes them (by alias, no nulls)."""
    schema = case.model.model_json_schema()
    defs = schema.get("$defs", {})
    inputs, tries = [], 0
    while len(inputs) < count and tries < count * 20:
        tries += 1
        candidate = gen.value(schema, defs)
        try:
            validated = case.model.model_validate(candidate)
        except Exception:
            continue
        dumped = dump(validated)
        if "result" in case.model.model_fields and "result" not in dumped:
            dumped["result"] = None  # a delete's result: null, not absent
        inputs.append(dumped)
    return inputs


class Tally:
    def __init__(self):
        self.rows = []
        self.failures = []
        self.quirks = {}
        self.raised = {}

    def compare(self, case, direction, label, inputs, expected, ours, unhinted, check_v03):
        agree = raised = alone = 0
        for obj, want, got, bare in zip(inputs, expected, ours, unhinted):
            if "__sdk_error__" in want:
                raised += 1
                reason = f"{case.name}: {want['__sdk_error__'][:90]}"
                self.raised[reason] = self.raised.get(reason, 0) + 1
                # Back to v0.3 the SDK raises on what v0.3 cannot hold (a request without a
                # usable id, a card no v0.3 client can use): ours must refuse it too.
                if check_v03 and "error" not in got:
                    self.failures.append((case.name, direction, "the SDK refuses, ours exit 0", obj, want, got.get("result")))
                # A REST name the SDK's reader raises on: ours must name it in an error.
                if "resource name" in want["__sdk_error__"] and not any(
                    finding.get("severity") == "error" for finding in got.get("findings", []) + got.get("warnings", [])
                ):
                    self.failures.append((case.name, direction, "the SDK refuses, ours has no error", obj, want, got.get("result")))
                continue
            if "error" in got and "result" not in got:
                self.failures.append((case.name, direction, "refused", obj, want, got["error"]))
                continue
            strict = not check_v03 and strict_v10(case, got["result"])
            if strict:
                self.failures.append((case.name, direction, "strict v1.0 ProtoJSON rejects ours: " + strict, obj, want, got["result"]))
                continue
            invalid = check_v03 and v03_valid(case.model, got["result"])
            if invalid:
                self.failures.append((case.name, direction, "v0.3 model rejects ours: " + invalid, obj, want, got["result"]))
                continue
            normal = allowed(case.name, direction, obj, want, got["result"], self.quirks)
            if fold(got["result"]) != fold(normal):
                self.failures.append((case.name, direction, "differs", obj, normal, got["result"]))
                continue
            agree += 1
            if "result" in bare and fold(bare["result"]) == fold(got["result"]):
                alone += 1
        self.rows.append((case.name, label, agree, len(inputs) - raised, raised, alone))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=DEFAULT_COUNT, help=f"objects in all (default {DEFAULT_COUNT})")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--binary", default=str(ROOT / "target" / "debug" / "handoff-inspector"))
    parser.add_argument("--table", action="store_true", help="print the docs table")
    parser.add_argument("--write-docs", action="store_true", help="write the table into docs/migrate.md")
    parser.add_argument("--show", type=int, default=3, help="differences printed per class")
    parser.add_argument("--raised", action="store_true", help="list what the SDK raised on")
    args = parser.parse_args()
    if not Path(args.binary).exists():
        print(f"no binary at {args.binary}: cargo build first", file=sys.stderr)
        return 2

    gen = Gen(args.seed)
    mutator = Mutator(args.seed)
    tally = Tally()
    all_cases = cases()
    rest_cases = [case for case in all_cases if case.rest]
    per_case = max(1, args.count // (len(all_cases) + len(rest_cases)))
    for case in all_cases:
        inputs = generate(gen, case, per_case)
        # One JSON-RPC object in seven with snake_case member names, which the SDK's
        # models read too.
        inputs = [snake_case(obj) if gen.rng.random() < 0.15 else obj for obj in inputs]
        inputs = [mutator.forward(obj) for obj in inputs]

        def sdk_forward(obj, case=case):
            if case.object_choices:
                case.object_choices(obj)  # raises where no single choice gives the SDK's pick
            return case.forward(obj)

        expected = [sdk_or_error(sdk_forward, obj) for obj in inputs]
        ours = run_grouped(args.binary, inputs, "1.0", case, case.choices, case.kind, "0.3")
        unhinted = run_grouped(args.binary, inputs, "1.0", case, case.choices)
        tally.compare(case, "forward", "v0.3 -> v1.0", inputs, expected, ours, unhinted, False)
        if case.rest:
            # The HTTP+JSON/REST dialect: the SDK's own v0.3 ProtoJSON of the same objects,
            # one in seven with proto field names, read back the way the SDK reads it.
            rest_inputs, rest_expected = [], []
            for obj in inputs:
                try:
                    written, want = case.rest(obj, gen.rng.random() < 0.15)
                except Exception as error:
                    written, want = obj, {"__sdk_error__": f"{type(error).__name__}: {error}"}
                else:
                    edited = mutator.rest(case, written)
                    if edited is not None:
                        written, want = edited, sdk_or_error(case.rest_read, edited)
                rest_inputs.append(written)
                rest_expected.append(want)
            rest_case = Case(case.name + " (REST)", case.model, case.kind, case.forward, v10=case.v10, strict_part=case.strict_part)
            ours = run_grouped(args.binary, rest_inputs, "1.0", case, case.choices, case.kind, "0.3-rest")
            unhinted = run_grouped(args.binary, rest_inputs, "1.0", case, case.choices)
            tally.compare(rest_case, "forward", "v0.3 REST -> v1.0", rest_inputs, rest_expected, ours, unhinted, False)
        if not case.reverse:
            continue
        # Back from the SDK's own v1.0 output; one in seven with proto field names, which
        # ParseDict reads too.
        sources = [want for want in expected if "__sdk_error__" not in want]
        sources = [snake_case(obj) if gen.rng.random() < 0.15 else obj for obj in sources]
        sources = [mutator.reverse(case, obj) for obj in sources]
        back = [sdk_or_error(case.reverse, obj) for obj in sources]
        ours = run_ours(args.binary, sources, "0.3", case.back_choices, case.kind, "1.0")
        unhinted = run_ours(args.binary, sources, "0.3", case.back_choices)
        tally.compare(case, "reverse", "v1.0 -> v0.3", sources, back, ours, unhinted, True)

    real_shaped(args.binary, all_cases, tally)
    table = render_table(tally.rows)
    if args.table:
        print(table)
    else:
        for name, direction, agree, total, raised, alone in tally.rows:
            print(f"{name:42} {direction:17} {agree:5}/{total:<5} agree  (SDK raised on {raised}; {alone} agree without --kind)")
    if mutator.counts:
        print("objects as real files write them:")
        for name, count in sorted(mutator.counts.items()):
            print(f"  {count:5}  {name}")
    if tally.quirks:
        print("SDK quirks allowed (docs/migrate.md, SDK differences):")
        for quirk, count in sorted(tally.quirks.items()):
            print(f"  {count:5}  {quirk}")
    if tally.raised and args.raised:
        print("SDK raised (not compared):")
        for reason, count in sorted(tally.raised.items()):
            print(f"  {count:5}  {reason}")
    status = differential_common.print_differences(
        [
            ((name, direction, what.split(":")[0]), f"\n{name} {direction} {what}:\n  input {json.dumps(obj)}\n  sdk   {json.dumps(want)}\n  ours  {json.dumps(got)}")
            for name, direction, what, obj, want, got in tally.failures
        ],
        args.show,
    )
    published = (args.seed, args.count) == (DEFAULT_SEED, DEFAULT_COUNT)
    docs = ROOT / "docs" / "migrate.md"
    status |= differential_common.docs_table(docs, table, args.write_docs, published, TABLE_START, TABLE_END)
    return status


REAL_SHAPED = ROOT / "scripts" / "sdk_differential_objects.json"


def real_shaped(binary, all_cases, tally):
    """The project's own objects in the shapes the specification's examples and the SDKs'
    documented objects take (written here, not copied): each through both sides, with the
    kind and version given as for the generated ones, one table row per case and direction."""
    by_name = {case.name: case for case in all_cases}
    groups = {}
    for entry in json.loads(REAL_SHAPED.read_text()):
        groups.setdefault((entry["case"], entry["direction"]), []).append(entry["object"])
    for (name, direction), objects in groups.items():
        case = by_name[name]
        shaped = Case(name + " (real-shaped)", case.model, case.kind, case.forward, case.reverse,
                      choices=case.choices, back_choices=case.back_choices,
                      object_choices=case.object_choices, v10=case.v10, strict_part=case.strict_part)
        if direction == "forward":
            expected = [sdk_or_error(case.forward, obj) for obj in objects]
            ours = run_grouped(binary, objects, "1.0", case, case.choices, case.kind, "0.3")
            bare = run_grouped(binary, objects, "1.0", case, case.choices)
            tally.compare(shaped, "forward", "v0.3 -> v1.0", objects, expected, ours, bare, False)
        else:
            expected = [sdk_or_error(case.reverse, obj) for obj in objects]
            ours = run_ours(binary, objects, "0.3", case.back_choices, case.kind, "1.0")
            bare = run_ours(binary, objects, "0.3", case.back_choices)
            tally.compare(shaped, "reverse", "v1.0 -> v0.3", objects, expected, ours, bare, True)


DEFAULT_COUNT = 6000
DEFAULT_SEED = 22
TABLE_START = "<!-- sdk_differential.py table: start -->"
TABLE_END = "<!-- sdk_differential.py table: end -->"


def render_table(rows):
    lines = [
        "| kind | direction | agree | compared | SDK raised | agree without `--kind` |",
        "|---|---|---|---|---|---|",
    ]
    for name, direction, agree, total, raised, alone in rows:
        lines.append(f"| {name} | {direction} | {agree} | {total} | {raised} | {alone} |")
    return "\n".join(lines)


if __name__ == "__main__":
    ensure_venv()
    sys.exit(main())

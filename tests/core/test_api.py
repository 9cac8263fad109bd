"""The JSON facade: answers and errors as data; a failed call never touches the game."""

import json

from muster import __version__, limits
from muster.api import Session


def loaded():
    session = Session()
    answer = session.call("load_scenario", {"id": "demo-hohenbrueck"})
    assert answer["ok"], answer
    return session


def test_version_and_list():
    session = Session()
    answer = session.call("version")["result"]
    assert answer["version"] == __version__
    assert answer["limits"]["scenario"] == limits.MAX_SCENARIO_CHARS
    listed = session.call("scenario_list")["result"]
    assert {"id": "demo-hohenbrueck", "system": "hex-hexside"}.items() <= listed[0].items()


def test_load_scenario_summary():
    answer = Session().call("load_scenario", {"id": "demo-hohenbrueck"})
    assert answer["ok"]
    assert answer["result"]["hexes"] == 140
    assert answer["result"]["system"] == "hex-hexside"
    assert answer["result"]["options"] == ["crt"]  # an owner's table may replace the stand-in
    for demo in ("demo-valmont", "demo-fontanella"):
        assert Session().call("load_scenario", {"id": demo})["result"]["options"] == []


def test_hex_info_answers_from_the_map():
    session = loaded()
    town = session.call("hex_info", {"hex": "1005"})["result"]
    assert town["hex"] == "1005"
    assert town["terrain"] == ["town"]
    assert [u["id"] for u in town["units"]] == ["au-ir4"]
    assert {r["to"] for r in town["roads"]} >= {"0905", "1105"}
    bridge_end = session.call("hex_info", {"hex": "0705"})["result"]
    crossing = [s for s in bridge_end["hexsides"] if s["to"] == "0805"]
    assert crossing == [
        {"direction": 1, "to": "0805", "features": ["stream", "bridge"], "name": "Weissbach"}
    ]
    hill = session.call("hex_info", {"hex": "1104"})["result"]
    assert hill["level"] == 1
    assert any(s["features"] == ["slope"] and s["up"] == "1104" for s in hill["hexsides"])


def test_unknown_hex_is_a_readable_error():
    answer = loaded().call("hex_info", {"hex": "9999"})
    assert answer == {
        "ok": False,
        "error": {
            "key": "error.unknown_hex",
            "params": {"hex": "9999"},
            "message": "no hex 9999 on this map",
        },
    }


def test_errors_for_bad_calls():
    session = Session()
    assert session.call("hex_info", {"hex": "0101"})["error"]["key"] == "error.no_scenario"
    assert session.call("fly", {})["error"]["key"] == "error.unknown_method"
    assert session.call("version", [1])["error"]["key"] == "error.bad_params"
    assert session.call("load_scenario", {})["error"]["key"] == "error.missing_param"
    assert loaded().call("hex_info", {})["error"]["key"] == "error.missing_param"


def test_bad_scenario_leaves_the_game_untouched():
    session = loaded()
    before = session.scenario
    answer = session.call("load_scenario", {"scenario": {"format": "muster-scenario/1"}})
    assert answer["ok"] is False
    assert answer["error"]["key"] == "error.scenario"
    assert session.scenario is before
    assert session.call("hex_info", {"hex": "1005"})["ok"]


def test_internal_errors_are_reported_not_raised():
    session = loaded()

    def broken(params):
        raise ZeroDivisionError("boom")

    session.methods["broken"] = broken
    answer = session.call("broken")
    assert answer["ok"] is False
    assert answer["error"]["key"] == "error.internal"
    assert answer["error"]["params"] == {"kind": "ZeroDivisionError", "detail": "boom"}


def test_call_json_round_trip_and_bad_json():
    session = loaded()
    answer = json.loads(session.call_json('{"method": "hex_info", "params": {"hex": "0302"}}'))
    assert answer["result"]["terrain"] == ["woods"]
    bad = json.loads(session.call_json("{not json"))
    assert bad["ok"] is False and bad["error"]["key"] == "error.bad_json"
    assert json.loads(session.call_json("[1, 2]"))["error"]["key"] == "error.unknown_method"


def test_reachable_and_path():
    session = loaded()
    reach = session.call("reachable", {"unit": "pr-gren"})["result"]
    assert reach["from"] == "0506" and reach["allowance"] == 4
    assert reach["hexes"]["0506"] == {"cost": 0.0}
    assert reach["hexes"]["0806"] == {"cost": 4.0, "stop": "zoc"}
    path = session.call("path", {"unit": "pr-gren", "to": "0806"})["result"]
    assert path["hexes"][0] == "0506" and path["hexes"][-1] == "0806"
    assert path["cost"] == 4 == sum(step["cost"] for step in path["steps"])
    assert path["steps"][-1]["stop"] == "zoc"
    far = session.call("path", {"unit": "pr-gren", "to": "1410"})
    assert far["error"]["key"] == "error.unreachable"
    assert session.call("reachable", {"unit": "nobody"})["error"]["key"] == "error.unknown_unit"
    assert session.call("path", {"unit": "pr-gren"})["error"]["key"] == "error.missing_param"


def test_los_method():
    session = loaded()
    clear = session.call("los", {"from": "0404", "to": "0905"})["result"]
    assert clear["clear"] is True and clear["range"] == 5 and clear["blocked_by"] is None
    blocked = session.call("los", {"from": "0205", "to": "0402"})["result"]
    assert blocked["clear"] is False
    assert blocked["blocked_by"]["reason"] == "los.blocked.terrain"
    assert 0 < blocked["blocked_by"]["t"] < 1
    assert session.call("los", {"from": "0205", "to": "9999"})["error"]["key"] == (
        "error.unknown_hex"
    )


def test_queries_never_change_the_scenario():
    session = loaded()
    before = json.dumps(session.scenario.data, sort_keys=True)
    session.call("reachable", {"unit": "pr-cr5"})
    session.call("path", {"unit": "pr-cr5", "to": "0507"})
    session.call("los", {"from": "0307", "to": "1207"})
    session.call("hex_info", {"hex": "0307"})
    assert json.dumps(session.scenario.data, sort_keys=True) == before

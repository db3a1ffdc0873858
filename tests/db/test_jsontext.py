"""The store's JSON reads back exactly what it wrote, including what only Python's json writes."""
import json
import math

from hypothesis import given, settings
from hypothesis import strategies as st

from db.jsontext import dumps, dumps_bytes, loads

values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=3), inner, max_size=5),
    max_leaves=30)


@settings(max_examples=300, deadline=None)
@given(values)
def test_what_is_written_reads_back_as_json_reads_it(value):
    text = dumps(value)
    # repr: nan != nan, and 1 != 1.0 != True here
    assert repr(loads(text)) == repr(json.loads(json.dumps(value))) == repr(json.loads(text))
    assert dumps_bytes(value) == text.encode()


def test_non_finite_floats_and_lone_surrogates_read_back():
    assert loads(dumps({"d": math.inf, "e": -math.inf}))["d"] == math.inf
    assert math.isnan(loads(dumps([math.nan]))[0])
    assert loads(dumps(["\ud800"])) == ["\ud800"]
    assert loads(b'{"a":[1,2.5,true,null]}') == {"a": [1, 2.5, True, None]}


def test_a_text_without_null_is_msgspecs_and_one_with_null_is_jsons():
    # msgspec spells 1e16 without json's "+": which of the two wrote a text shows in it
    assert dumps({"e": 1e16}) == '{"e":1e16}'
    assert dumps({"e": 1e16, "n": None}) == '{"e":1e+16,"n":null}'
    assert dumps_bytes({"e": 1e16}) == b'{"e":1e16}'


def test_keys_only_json_writes_are_written_as_json_writes_them():
    assert dumps({True: 1, None: 2, 3: 4}) == '{"true":1,"null":2,"3":4}'
    assert loads(dumps({"big": 2 ** 70, "e": 1e16, "s": "é"})) == {"big": 2 ** 70, "e": 1e16, "s": "é"}

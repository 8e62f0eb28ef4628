"""Objective rule: look-alike packages.

`lookalike_package` (AUTH): an installer or a package runner (`pip install`, `uv add`, `npm i`, `npx`,
`uvx`) given a package whose name is a near miss of a package every project uses (`facts.packages`): one
edit, or two for long names, a swap of neighbours counting as one. The installer's registry and the
sub-commands after which its operands are packages are the program table's (`registry`, `installs`,
`runs_package`); the names come from `facts.packages` (kept by hand, and the registries' most downloaded
names shipped in `limen/data/`), and a near miss that is used in its own right is no slip. A tool that
installs from a registry its server or name names (`mcp__pypi__install_package`) is one too. An npm package
fetched and run at once (`npx X`) or installed as a tool for every project (`npm i -g X`) that the
registry's listing shows nobody using, and that is not the project's own, asks as well.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator

from limen.context import Context
from limen.facts.hosts import FORGES, imitated_owner, registrable_name, within_edits
from limen.facts.packages import (
    REGISTRY_WORDS,
    alias_swap,
    imitated,
    imitated_in_scope,
    initializer_package,
    known_go_publisher,
    known_malicious,
    package_name,
    spec_registry,
)
from limen.facts.packages import package_version as package_version_of
from limen.facts.programs import Program, program
from limen.model import Action, Command, Finding, ReasonCode, Verdict
from limen.rules import rule
from limen.rules.derived import edited_texts


@rule(ReasonCode.LOOKALIKE_PACKAGE, needs=("acting", "served"))
def lookalike_package(action: Action, ctx: Context) -> Iterator[Finding]:
    """A package installed or run whose name imitates a popular one (`pip install reqeusts`, `npm i
    lodahs`, `npx create-react-ap`, `go get github.com/gorrila/mux`, `cargo add rustdecimal`): AUTH,
    since its install code runs at once; a release known to carry a payload (`event-stream@3.3.6`,
    `torchtriton`): BLOCK; a package taken from a forge by an owner posing as a well-known one
    (`github.com/vuejs-core/vue`), or a well-known repository's name that carries its maker's, under
    another account (`forge install 0xS3cur1ty/openzeppelin-contracts`), or a scoped npm name nobody uses
    that is a near miss of a much-used one of its scope (`@openzeppelin/hardhat-upgrads`): AUTH; an npm
    package nobody uses,
    fetched and run (`npx -y eas-cli-turbo`) or installed globally: AUTH. Quiet: the popular names
    themselves, near misses used in their own right (`preact`), names like none of them installed into the
    project, the project's own packages and scopes, other versions of a hijacked package, local paths and
    other URLs (other rules judge those), a copy under the project's own account."""
    if not action.commands and not action.tool.startswith("mcp__"):
        return
    found = [
        (*spec_registry(entry.registry, spec), _how(entry, command))
        for command, entry in _installers(action)
        for spec in _packages(entry, command)
    ]
    found = [(registry, by, spec) for registry, spec, by in found]
    found += [(registry, action.tool, spec) for registry, spec in _tool_packages(action)]
    found += [(registry, c.name, spec) for c in action.commands for registry, spec in _optioned_packages(c)]
    for command in action.commands:
        swapped = _replaced_module(command, action.cwd or ctx.workspace)
        if swapped:  # `go mod edit -replace=golang.org/x/crypto=github.com/someone/crypto@v0.21.0`
            yield Finding(ReasonCode.LOOKALIKE_PACKAGE, Verdict.AUTH, 75, f"go mod edit {swapped}")
            return
    for registry, by, spec in found:
        name = package_name(registry, spec)
        if known_malicious(registry, spec):
            detail = f"{by} installs {name!r}, a release known to carry a payload"
            yield Finding(ReasonCode.LOOKALIKE_PACKAGE, Verdict.BLOCK, 90, detail)
            return
        if registry == "npm" and (aliased := alias_swap(spec)):
            detail = f"{by} installs {aliased[1]!r} under the name {aliased[0]!r}"
            yield Finding(ReasonCode.LOOKALIKE_PACKAGE, Verdict.AUTH, 75, detail)
            return
        original = (
            imitated(registry, name)
            or _imitates_own(registry, name, _folders(action, ctx))
            or (imitated_in_scope(name) if registry == "npm" else "")
        )
        if original and registry in ("github", "go") and _forks_own(name, action.cwd or ctx.workspace):
            original = ""  # the project's own copy of a library, under its own account
        if original:
            verb = by if by.endswith(" runs") else f"{by} installs"  # (`npx runs 'x'`, `pip installs 'x'`)
            detail = f"{verb} {name!r}, a near miss of {original!r}"
            yield Finding(ReasonCode.LOOKALIKE_PACKAGE, Verdict.AUTH, 75, detail)
            return
        if unused := _unused_fetched(registry, by, spec, action, ctx) or _unknown_module_run(
            by, spec, action, ctx
        ):
            yield Finding(ReasonCode.LOOKALIKE_PACKAGE, Verdict.AUTH, 70, unused)
            return
        source = _FORGE_SOURCE.search(spec)
        owner = (source.group(1) or source.group(2)) if source else ""
        posed = imitated_owner(owner) if owner else ""
        if posed:  # `npm install https://github.com/vuejs-core/vue/tarball/main`
            detail = f"{by} installs from {owner!r}, which poses as {posed!r}"
            yield Finding(ReasonCode.LOOKALIKE_PACKAGE, Verdict.AUTH, 75, detail)
            return


def _optioned_packages(command: Command) -> list[tuple[str, str]]:
    """The packages a command's own options install (`--pypi-package NAME`: `Program.package_options`)."""
    entry = program(command.name)
    if entry is None or not entry.package_options:
        return []
    argv = command.argv
    found = []
    for option, registry in entry.package_options:
        for i, word in enumerate(argv[1:], 1):
            if word == option and i + 1 < len(argv):
                found.append((registry, argv[i + 1]))
            elif word.startswith(option + "="):
                found.append((registry, word.split("=", 1)[1]))
    return found


def _folders(action: Action, ctx: Context) -> tuple[str, ...]:
    """Where the line runs its commands: its working folder, and the folders it enters (`cd smart-app`)."""
    entered = tuple(note[3:] for note in action.notes if note.startswith("cd:"))
    return (action.cwd or ctx.workspace or "", *entered)[:4]


def _imitates_own(registry: str, name: str, folders: tuple[str, ...]) -> str:
    """The dependency of the project's own package.json that an npm name is a near miss of (`npm install
    fhirclinet` where the project depends on `fhirclient`): not the one it has, but one spelt like it, that
    the registry's users do not use."""
    from limen.facts.packages import used

    if registry != "npm" or len(name) < 5 or used("npm", name):
        return ""  # (a near miss the registry's users use in its own right: `react-dnd` beside `react-dom`)
    own = frozenset().union(*(_project_npm_names(folder) for folder in folders if folder))
    if name.lower() in own:
        return ""
    return next((dep for dep in sorted(own) if len(dep) >= 5 and _near_miss(name.lower(), dep)), "")


def _forks_own(name: str, cwd: str) -> bool:
    """A repository (`OWNER/REPO`, `github.com/OWNER/REPO`) under the account of the project's own origin."""
    from limen.facts.hosts import project_repository

    identity = project_repository(cwd) if cwd else None
    owner = name.removeprefix("github.com/").split("/", 1)[0]
    return identity is not None and identity[1].split("/", 1)[0].lower() == owner.lower()


def _how(entry: Program, command: Command) -> str:
    """How a command takes its packages: `NAME runs` when it fetches one and runs it at once (`npx X`, `pnpm
    dlx X`, `npm create X`), `NAME installs globally` for a tool installed for every project (`npm i -g
    X`), else `NAME`."""
    operands = [w for w in command.argv[1:] if not w.startswith("-")]
    if any(operands[: len(verb.split())] == verb.split() for verb in entry.runs_package):
        return f"{command.name} runs"
    if len(operands) > 1 and operands[0] in entry.initializers:  # `npm create x`: create-x fetched and run
        return f"{command.name} {operands[0]} runs"
    if {"-g", "--global"} & set(command.argv) or operands[:1] == ["global"]:
        return f"{command.name} installs globally"
    if entry.registry == "go" and operands[:1] == ["install"] and any("@" in w for w in operands[1:]):
        return f"{command.name} installs globally"  # `go install M@v`: a program on every project's PATH
    return command.name


def _unused_fetched(registry: str, by: str, spec: str, action: Action, ctx: Context) -> str:
    """`npx -y eas-cli-turbo`, `npm i -g xmrig-node`: an npm package fetched and run at once, or installed as
    a tool for every project, that the registry's listing shows nobody using (`facts.packages.used`) and that
    is not the project's own (named in its package.json, under its scope, or under a scope its .npmrc takes
    from a registry of its own). A project's dependencies (`npm install X`) are left to the review of its
    manifest."""
    from limen.facts.packages import used

    if registry != "npm" or not by.endswith((" runs", " globally")):
        return ""
    name = package_name(registry, spec)
    if not name or not re.fullmatch(r"(?:@[\w.-]+/)?[\w.-]+", name) or used("npm", name):
        return ""
    if name.lower() in _OPTION_VALUES or not re.search(r"[a-z]", name.lower()):
        return ""  # `npm i -g x --unsafe-perm true`: a flag's value, no package
    own = _project_npm_names(action.cwd or ctx.workspace or "")
    if name.lower() in own or name.lower().split("/", 1)[0] in own:
        return ""
    return f"{by} {name!r}, a package the registry's users do not use"


def _unknown_module_run(by: str, spec: str, action: Action, ctx: Context) -> str:
    """`go run github.com/qk-devtools/stripe-audit@latest`: a Go module fetched from a source forge at a
    version the project does not pin, and run at once (or installed and run by the same line: `go install
    M@v && NAME ...`), from an account that publishes none of the modules Go projects commonly take
    (`facts.packages.known_go_publisher`) and is not the project's own. Go has no registry listing to say
    who uses a module: who publishes it is what is known. Quiet: a module of the
    project's go.mod or its own account, modules of the Go team's and well-known owners' domains and
    accounts, and `go run` of a package of the project (no version)."""
    module, at, version = spec.partition("@")
    program = module.rstrip("/").rsplit("/", 1)[-1]
    if by == "go installs globally" and any(c.name == program for c in action.commands):
        by = "go installs and runs"  # `go install M@latest && ~/go/bin/NAME ...`: fetched and run at once
    if (
        by not in ("go runs", "go installs and runs")
        or not at
        or module.split("/", 1)[0].lower() not in FORGES.values()
    ):
        return ""
    cwd = action.cwd or ctx.workspace or ""
    if known_go_publisher(module) or _forks_own(module, cwd) or _required_by_project(module, cwd):
        return ""
    return f"{by} {module!r}, fetched at {version or 'a version'} from a publisher Go projects do not use"


def _required_by_project(module: str, cwd: str) -> bool:
    """The module, or the module it is a package of, is one the project's go.mod requires, or lies under
    the account of the project's own module path (`module github.com/acme/svc`: `github.com/acme/...`)."""
    from limen.normalize.paths import read_text

    text = read_text(os.path.join(cwd, "go.mod"), 256_000) if cwd else None
    if not text:
        return False
    required = re.findall(r"^\s*(?:require\s+)?([\w.~-]+(?:/[\w.~-]+)+)\s+v\S+", text, re.MULTILINE)
    own = re.search(r"^module\s+([\w.~-]+/[\w.~-]+)/", text, re.MULTILINE)
    if own and module.lower().startswith(own.group(1).lower() + "/"):
        return True
    return any(module == r or module.startswith(r + "/") for r in required)


_OPTION_VALUES = frozenset({"true", "false", "yes", "no", "on", "off", "latest", "next"})


def _project_npm_names(cwd: str) -> frozenset[str]:
    """The npm names and scopes a project owns or depends on: its package.json files' names and
    dependencies (this folder and the ones above it), their scopes, the programs of its node_modules/.bin,
    and the scopes its .npmrc files send to a registry of their own (`@acme:registry=...`)."""
    import contextlib
    import json
    import os

    found: set[str] = set()
    folder = cwd
    for _ in range(6):
        if not folder:
            break
        try:
            with open(os.path.join(folder, "package.json"), encoding="utf-8") as handle:
                manifest = json.loads(handle.read(1_000_000))
        except (OSError, ValueError):
            manifest = None
        if isinstance(manifest, dict):
            own = manifest.get("name")
            if isinstance(own, str):
                found.update({own.lower(), own.lower().split("/", 1)[0]})
            for key in ("dependencies", "devDependencies", "optionalDependencies", "peerDependencies"):
                listed = manifest.get(key)
                if isinstance(listed, dict):
                    found.update(str(k).lower() for k in listed)
        with contextlib.suppress(OSError):  # its packages' programs (`npx tsc` runs node_modules/.bin/tsc)
            found.update(n.lower() for n in os.listdir(os.path.join(folder, "node_modules", ".bin"))[:4096])
        with contextlib.suppress(OSError), open(os.path.join(folder, ".npmrc"), encoding="utf-8") as handle:
            text = handle.read(65536)
            found.update(m.lower() for m in re.findall(r"(?m)^[ \t]*(@[\w.-]+):registry[ \t]*=", text))
        parent = os.path.dirname(folder)
        folder = "" if parent == folder else parent
    scoped = {n.split("/", 1)[0] for n in found if n.startswith("@")}
    return frozenset(found | scoped)


# A package taken from a forge by address (`https://github.com/OWNER/REPO/tarball/main`, `github:OWNER/REPO`,
# `git+https://gitlab.com/OWNER/REPO.git`): the owner is who publishes it
_FORGE_SOURCE = re.compile(r"(?:github\.com|gitlab\.com|bitbucket\.org)[/:]([\w.-]+)/|^github:([\w.-]+)/")


def _replaced_module(command: Command, cwd: str) -> str:
    """`go mod edit -replace=OLD=NEW`: every build takes NEW's code for OLD. A well-known module replaced by
    a remote one under another owner is what an impostor needs; a local copy, another version, or a fork
    under the project's own owner is not."""
    from limen.facts.hosts import project_repository
    from limen.facts.packages import replaces_popular

    if command.name != "go" or command.argv[1:3] != ("mod", "edit"):
        return ""
    argv = command.argv
    for i, word in enumerate(argv):
        value = word.partition("=")[2] if word.startswith("-replace=") else ""
        if word == "-replace" and i + 1 < len(argv):
            value = argv[i + 1]
        original, _, replacement = value.partition("=")
        identity = project_repository(cwd) if replacement else None
        own = identity is not None and replacement.lower().split("/")[1:2] == [
            identity[1].split("/")[0].lower()
        ]
        if replacement and replaces_popular(original, replacement) and not own:
            return f"replaces {original.split('@')[0]} with {replacement.split('@')[0]}"
        if replacement and (imitation := _swapped(original, replacement)):  # `coreos` by `c0reos`
            return imitation
    return ""


def _installers(action: Action) -> Iterator[tuple[Command, Program]]:
    for command in action.commands:
        entry = program(command.name)
        if entry is not None and entry.registry:
            yield command, entry


_INSTALL_WORDS = re.compile(r"(?:^|_|-)(?:install|add|run|pull|require)(?:$|_|-)")
_PACKAGE_KEYS = ("name", "package", "packages", "package_name", "pkg", "module", "image", "crate", "gem")


def _tool_packages(action: Action) -> Iterator[tuple[str, str]]:
    """`mcp__pypi__install_package(name="reqeusts")`: a tool whose server or name names a registry
    (`facts.packages.REGISTRY_WORDS`) and whose name installs, given packages by name."""
    if not action.tool.startswith("mcp__"):
        return
    _, _, rest = action.tool.partition("__")
    server, _, tool = rest.partition("__")
    words = re.split(r"[_\-.]", f"{server}_{tool}".lower())
    registry = next((REGISTRY_WORDS[w] for w in words if w in REGISTRY_WORDS), "")
    if not registry or not _INSTALL_WORDS.search(tool.lower()):
        return
    for key in _PACKAGE_KEYS:
        value = action.arguments.get(key)
        for spec in [value] if isinstance(value, str) else value if isinstance(value, list) else []:
            if isinstance(spec, str):
                yield registry, spec


def _packages(entry: Program, command: Command) -> list[str]:
    """The operands a command installs (every one after an `installs` sub-command) or fetches and runs (the
    first after a `runs_package` one), option values aside."""
    words: list[str] = []
    skip = False
    version = ""  # `gem install rest-client -v 1.6.13`, `bundle add x --version 3.2.0.3`: the release named
    for word in command.argv[1:]:
        if skip:
            skip = False
            version = word if version == "?" else version
        elif word.startswith("--version="):
            version = word.split("=", 1)[1]
        elif word.startswith("-"):
            skip = word in entry.options or word in _VERSION_OPTIONS
            version = "?" if word in _VERSION_OPTIONS else version
        else:
            words.append(word)
    if len(words) > 1 and words[0] in entry.initializers:  # `npm create vite@latest my-app`: create-vite
        return [initializer_package(words[1])] if initializer_package(words[1]) else []
    for verbs, every in ((entry.installs, True), (entry.runs_package, False)):
        for verb in verbs:
            parts = verb.split()
            if words[: len(parts)] == parts:
                rest = words[len(parts) :] if every else words[len(parts) : len(parts) + 1]
                if version not in ("", "?") and len(rest) == 1 and not package_version_of(rest[0]):
                    return [f"{rest[0]}@{version}"]
                return rest
    return []


_VERSION_OPTIONS = frozenset({"-v", "--version"})


# Where code comes from, as written in a file: an address (`https://github.com/Alamofire/Alamofire.git`,
# `git@gitlab.com:acme/lib`), a forge reference (`github:NixOS/nixpkgs`), a quoted `owner/repo`. Each pattern
# starts with a literal, which the regex engine finds fast (a whole-file Write passes through here)
_ADDRESS_REFERENCE = re.compile(r"""://(?:[^@\s/"'`]+@)?([\w.-]+)(?:[:/]([\w.-]+)(?:/([\w.-]+))?)?""")
_SSH_REFERENCE = re.compile(r"git@([\w.-]+)(?:[:/]([\w.-]+)(?:/([\w.-]+))?)?")
_FORGE_REFERENCE = re.compile(r"(?i)\b(github|gitlab|sourcehut|codeberg|bitbucket):~?([\w.-]+)/([\w.-]+)")
_QUOTED_REFERENCE = re.compile(r"""["']([\w.-]+)/([\w.-]+)["']""")
# (an action's or a package's `owner/repo@ref`, as a workflow's `uses:` names it)
_AT_REFERENCE = re.compile(r"(?<![\w./@:-])([\w.-]+)/([\w.-]+)@")
# (a directive that takes one module's code for another's: go.mod's `replace A => B v1.2`)
_REPLACED = re.compile(
    r"(?m)^[ \t]*(?:replace[ \t]+)?([\w.-]+\.[a-z]{2,}/\S+)(?:[ \t]+\S+)?[ \t]+=>[ \t]+(\S+)"
)
# (and an address written without its scheme: an image's `nvcr.io/nvidia/pytorch`, a Go module's path)
_HOST_REFERENCE = re.compile(
    r"(?<![\w./@:-])([a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,})/([\w.-]+)(?:/([\w.-]+))?"
)
_FORGE_PREFIXES = ("github:", "gitlab:", "sourcehut:", "codeberg:", "bitbucket:")
_HEX = re.compile(r"^[0-9a-f]+$", re.IGNORECASE)
_FORGE_HOSTS = frozenset({*FORGES.values(), *(f"www.{h}" for h in FORGES.values()), "git.sr.ht"})
_DOCUMENTS = (".md", ".markdown", ".rst", ".txt", ".adoc", ".html", ".htm")


def _references(text: str) -> set[tuple[str, str, str]]:
    """(host, owner, repository) of each reference in the text, lowercased ("" where it names none)."""
    head = text[:200_000]
    found = set()
    for literal, pattern in (("://", _ADDRESS_REFERENCE), ("git@", _SSH_REFERENCE)):
        for host, owner, repo in pattern.findall(head) if literal in head else ():
            found.add((host.lower(), owner.lower(), repo.lower().removesuffix(".git")))
    if any(prefix in head.lower() for prefix in _FORGE_PREFIXES):
        for forge, owner, repo in _FORGE_REFERENCE.findall(head):
            found.add((forge.lower() + ".com", owner.lower(), repo.lower().removesuffix(".git")))
    for owner, repo in _QUOTED_REFERENCE.findall(head):
        found.add(("", owner.lower(), repo.lower().removesuffix(".git")))
    for host, owner, repo in _HOST_REFERENCE.findall(head) if "/" in head else ():
        found.add((host.lower(), owner.lower(), repo.lower().removesuffix(".git")))
    for owner, repo in _AT_REFERENCE.findall(head) if "@" in head else ():
        found.add(("", owner.lower(), repo.lower()))
    return found


def _reference_words(references: set[tuple[str, str, str]]) -> set[str]:
    """The names in references: a host's labels, the owner and the repository (not the branch or the path
    below them, which change with every release)."""
    parts = {p for host, owner, repo in references for p in (*host.split("."), owner, repo)}
    return {p for p in parts if len(p) >= 4 and not _HEX.match(p)}


def _near_miss(added: str, removed: str) -> bool:
    limit = 2 if len(removed) >= 8 else 1
    return _letters(added) != _letters(removed) and within_edits(added, removed, limit)


# A dependency a manifest declares by name: Bundler's and fastlane's `gem 'x'`, CocoaPods' `pod 'x'`, Gradle's
# `implementation("group:artifact:1.0")`, a JSON manifest's `"name": "^1.2.0"` (its value: a version, or a
# source)
_DECLARED = re.compile(
    r"""(?m)^[ \t]*(?:gem|pod|implementation|api|compileOnly|runtimeOnly|testImplementation|classpath|kapt"""
    r"""|annotationProcessor)[ \t(]+["']([\w@/.:+-]{3,160})["']"""
)
_DEPENDENCY_ENTRY = re.compile(r"""["'](@?[\w.-]+(?:/[\w.-]+)?)["'][ \t]*:[ \t]*["']([^"'\n]{1,200})["']""")
_VERSION = re.compile(r"^[\^~<>=*]*[ \t]*v?\d|^(?:latest|next|\*)$")
_SOURCE = re.compile(r"^(?:github:|gitlab:|bitbucket:|git\+|git://|https?://|[\w.-]+/[\w.-]+(?:#|$))")


def _dependency_swapped(before: str, after: str) -> str:
    """A dependency a manifest declares replaced by a near miss of its name (`gem
    'fastlane-plugin-firebase_app_distributon'` for `..._distribution`), a Maven artifact taken from another
    group (`io.github.okhttp-mirror:okhttp` for `com.squareup.okhttp3:okhttp`), or a registry's version
    of a package replaced by an account's repository or an address (`"fhirclient": "github:x/client-js"`
    for `"^2.5.4"`): whoever holds the new name or source chooses the code."""
    had, has = set(_DECLARED.findall(before[:200_000])), set(_DECLARED.findall(after[:200_000]))
    for came in sorted(has - had)[:32]:
        for gone in sorted(had - has)[:32]:
            old_group, _, old_rest = gone.partition(":")
            group, _, rest = came.partition(":")
            if rest and old_rest and rest.split(":")[0] == old_rest.split(":")[0] and group != old_group:
                return f"{old_group}:{old_rest.split(':')[0]} is taken from another group, {group}"
            if _near_miss(
                came.split(":")[0] if not rest else came, gone.split(":")[0] if not old_rest else gone
            ):
                return f"{gone!r} is replaced by a near miss of it, {came!r}"
    versions = {
        name: value for name, value in _DEPENDENCY_ENTRY.findall(before[:200_000]) if _VERSION.match(value)
    }
    for name, value in _DEPENDENCY_ENTRY.findall(after[:200_000]):
        if name in versions and _SOURCE.match(value) and not _VERSION.match(value):
            return f"{name} is taken from {value[:80]} instead of its registry's release"
    return ""


def _swapped(before: str, after: str, imitating: bool = False) -> str:
    """How the references `after` adds imitate or replace those `before` had ("" when they do not); with
    `imitating`, only how they imitate them (a declared replacement is another account's by design: the
    fork every Cosmos chain takes, `gogo/protobuf => regen-network/protobuf`)."""
    from limen.facts.packages import decorated

    if "=>" in after:  # a replacement the text declares: judged as its original made the replacement
        for original, replacement in _REPLACED.findall(after[:200_000])[:16]:
            if (original, replacement) not in _REPLACED.findall(before[:200_000]) and (
                how := _swapped(original, replacement, imitating=True)
            ):
                return how
    had, has = _references(before), _references(after)
    came, gone = has - had, had - has
    for host, owner, repo in sorted(came)[:32]:
        for old_host, old_owner, old_repo in sorted(gone)[:32]:
            if (
                repo
                and not imitating
                and (repo, host) == (old_repo, old_host)
                and _letters(owner) not in ("", _letters(old_owner))
                and (not host or host in _FORGE_HOSTS)
            ):  # (a forge's account; a version in the path, `v23.0.0/package.dhall`, is no account)
                return f"{old_owner}/{repo} is replaced by {owner}/{repo}, another account's"
            old_name, name = registrable_name(old_host), registrable_name(host)
            if old_name and name and old_name != name and old_name in re.split(r"[-_.]", name):
                return f"{old_host} is replaced by {host}, another domain's"
        for part in {p for p in re.split(r"[-_.]", repo) if len(p) >= 4} - {owner}:
            if owner and _near_miss(owner, part):  # `yoj50n/yojson`, `puppet1abs/puppetlabs-stdlib`
                return f"{owner}/{repo}: its owner poses as {part!r}"
    if how := _dependency_swapped(before, after):
        return how
    gone_words, came_words = _reference_words(gone), _reference_words(came) - _reference_words(had)
    for added in sorted(came_words)[:64]:
        for removed in sorted(gone_words - _reference_words(has))[:64]:
            if _near_miss(added, removed):
                return f"{removed!r} is replaced by a near miss of it, {added!r}"
            hung = added.startswith((removed + "-", removed + "_")) or added.endswith(
                ("-" + removed, "_" + removed)
            )
            if hung or decorated(added, removed):  # `okta/okta` made `okta-labs/okta`: a word hung on it
                return f"{removed!r} is replaced by {added!r}, its name with a word hung on it"
    return ""


@rule(ReasonCode.LOOKALIKE_PACKAGE, needs="write_paths")
def swapped_reference(action: Action, ctx: Context) -> Iterator[Finding]:
    """A file changed so that where code comes from is a near miss of what it was: an owner, a repository
    or a host replaced by a look-alike of itself (`github "Alamofire/Alamofire"` by `github
    "A1amofire/Alamofire"`, `github:NixOS/nixpkgs` by `github:NixO5/nixpkgs`, `forge.puppet.com` by
    `forge.puppetlabs-mirror.com`... one edit, two for long names, a swap of neighbours counting as one):
    AUTH, whatever the file (a lock, a flake, a Cartfile, a Puppetfile, a build file), since whoever holds
    the look-alike now chooses the code. Quiet: versions, branches and paths below a repository changed; a
    change of case, digits or separators only; a new reference; documents (a link's typo fixed)."""
    from limen.rules.written import line_edits

    if not action.write_paths or action.write_paths[0].lower().endswith(_DOCUMENTS):
        return
    for path, before, after in line_edits(action) if action.commands else edited_texts(action):
        if how := _swapped(before, after):
            yield Finding(
                ReasonCode.LOOKALIKE_PACKAGE, Verdict.AUTH, 75, f"where {path} takes code from: {how}"
            )
            return


def _letters(word: str) -> str:
    return re.sub(r"[^a-z]", "", word.lower())

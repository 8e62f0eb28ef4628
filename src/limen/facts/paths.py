"""What files are for: the one table the path rules read for files that run later and agent instructions.

A file is persistence when something runs it, or reads it and runs what it names, later and without the
user asking (a test run, an install, a shell start, a git command, an editor opening the folder, a
schedule). What is written there is judged like a command run now (`content` says how to find the
commands in it). Agent instruction files are read by the next agent session as its instructions: what is
written there is screened like untrusted content reaching a model.

    fact = describe(path, home=..., workspace=...)   # PathFact or None
    fact.kind      "persistence" | "instructions"
    fact.content   how the written text runs: "shell", "python", "makefile", "package_json", ...
    fact.asks      asks even when the content is harmless (a place outside ordinary project work)
    fact.blind     asks when written with content Limen cannot see (`cp x .git/hooks/pre-commit`)

Ordinary project files that run later (`package.json`, `conftest.py`, `Makefile`, `.github/workflows`)
do not ask for harmless content: editing dependencies or fixtures is everyday work. Program code (by its
extension, when nothing above describes the file) is `severe_only`: what it does that a program may do
(network calls, its own files) is its business; only what the rules would BLOCK run now counts.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from dataclasses import dataclass

# The names NuGet reads its configuration under (case matters on Linux), and a feed it names there
# (`<add key="acme-internal" value="https://pkgs.dev.azure.com/acme/.../index.json" />`)
NUGET_CONFIG_NAMES = ("nuget.config", "NuGet.Config", "NuGet.config", "Nuget.Config")
NUGET_FEED = re.compile(r'<add\s+key\s*=\s*"([^"]*)"\s+value\s*=\s*"([^"]*)"', re.IGNORECASE)

PERSISTENCE = "persistence"
INSTRUCTIONS = "instructions"


@dataclass(slots=True, frozen=True)
class PathFact:
    name: str  # a short id, for the evidence trail
    purpose: str  # what the file is for, and when it runs
    kind: str = PERSISTENCE
    content: str = "shell"  # how its text runs (see `limen.rules.persistence_content`)
    asks: bool = False  # AUTH whatever the content
    blind: bool = False  # AUTH when the content cannot be seen (a shell copy or move)
    # only what the rules BLOCK in the content counts (and asks): program code does much that is fine in a
    # program (network calls, file writes) and is written all day; an implant (`curl | sh`, a reverse
    # shell, `rm -rf ~`) is not
    severe_only: bool = False


def _f(
    name: str,
    purpose: str,
    content: str,
    *,
    asks: bool = False,
    blind: bool | None = None,
    severe_only: bool = False,
) -> PathFact:
    return PathFact(name, purpose, PERSISTENCE, content, asks, asks if blind is None else blind, severe_only)


def _i(name: str, purpose: str) -> PathFact:
    return PathFact(name, purpose, INSTRUCTIONS, "text")


# What an MCP memory server keeps (`memory.create_entities`, `mem0.add_memory`): read back into later
# sessions as context, so its text is screened as an agent instruction file's is
MEMORY_STORE = _i("memory_store", "later sessions read it back as what they remember")
MANIFEST = _f("manifest", "the cluster runs the workloads it describes on the next deploy", "manifest")
# A file no entry here describes and that is no document or data: some program may still read command lines
# from it (a workflow manager's configuration, a wrapper script with no `#!` line, a kernel's launch list).
# Only what the rules would BLOCK run now counts (`curl URL | sh`, a reverse shell, a key sent away)
UNLISTED = _f("unlisted", "a file some program may read command lines from", "command_text", severe_only=True)
# Documents, tables, logs and test data: read by people or compared by tests, never run
_NEVER_RUN = re.compile(
    r"(?i)\.(?:md|markdown|mdx|rst|txt|adoc|asciidoc|org|tex|csv|tsv|log|po|pot|svg|diff|patch)$"
    r"|/(?:fixtures?|testdata|test_data|__snapshots__|snapshots)/"
)


def unlisted(path: str) -> PathFact | None:
    """`UNLISTED` for a file `describe` leaves out, unless it is a document, a table, a log, test data or an
    environment file (`.env.local`: values a program reads, `KEY=$(openssl rand -hex 32)` a value)."""
    name = path.rsplit("/", 1)[-1]
    return None if _NEVER_RUN.search(path) or name.startswith(".env") or name.endswith(".env") else UNLISTED


# Folders that hold a repository's history: deleting one loses every commit not pushed elsewhere.
VCS_FOLDERS = frozenset({".git", ".hg", ".svn", ".bzr", ".jj", ".fossil"})
# Hidden folders where toolchains and environments keep the programs they install (`~/.local/bin`,
# `~/.cargo/bin`, a project's `.venv`): a job that runs a program from any other hidden folder runs what was
# put out of sight (`~/.cache/.thumbsync/sync.py`)
TOOL_HOME_FOLDERS = (
    *("local", "cargo", "pub-cache", "deno", "bun", "volta", "npm-global", "yarn", "dotnet", "venv", "nvm"),
    *(
        "virtualenvs",
        "pyenv",
        "rbenv",
        "asdf",
        "sdkman",
        "rye",
        "poetry",
        "pixi",
        "mise",
        "linuxbrew",
        "krew",
    ),
    *("config", "nix-profile", "rustup", "goenv", "jenv", "nodenv", "tfenv", "fnm", "juliaup", "ghcup"),
)
# Folders whose contents are anyone's scratch: the systems' temporary folders (what lies there any local
# account may read, and nothing there is kept)
SCRATCH_ROOTS = ("/tmp/", "/var/tmp/", "/dev/shm/", "/private/tmp/", "/private/var/folders/")
# Folders a build or a tool makes again from the sources (lower case): deleting one loses nothing
BUILD_OUTPUT_FOLDERS = frozenset(
    {
        *("build", "builds", "dist", "out", "target", "obj", "intermediate", "binaries", "deriveddata"),
        *("node_modules", "__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache", ".tox", ".nox"),
        *(".gradle", ".next", ".nuxt", ".turbo", ".parcel-cache", "coverage", ".cache", "cmake-build-debug"),
        "cmake-build-release",
    }
)


def in_temporary_folder(path: str, *own: str) -> bool:
    """`path` lies in a system temporary folder and in none of the folders `own` names (the workspace, the
    home: a sandbox's home or checkout may itself be under /tmp, and is still the user's own)."""
    folder = path.rstrip("/") + "/"
    if not folder.startswith(SCRATCH_ROOTS):
        return False
    return not any(o and o != "/" and folder.startswith(o.rstrip("/") + "/") for o in own)


# Environment variables that name a temporary folder (the system's, a CI runner's, a session's): what lies
# there is scratch, whatever the value
SCRATCH_VARIABLES = frozenset(
    {"TMPDIR", "TMP", "TEMP", "RUNNER_TEMP", "XDG_RUNTIME_DIR", "AGENT_TEMPDIRECTORY"}
)

# Where home folders are: the running user's (`home`), and any user's on Linux and macOS. A home folder's
# start-up files, agent settings and folders mean the same whoever's home it is (an agent running as root
# that rewrites /home/dev/.bashrc plants code in dev's shells).
# (and under WSL, a Windows user's folder, else the Windows drive itself: a disk of the user's own)
_HOME_FOLDER = re.compile(
    r"^(?:/home/[^/]+|/Users/[^/]+|/root|/var/root|/mnt/[a-z]/Users/[^/]+|/mnt/[a-z])(?=/|$)"
)


def home_folder(path: str, home: str) -> str:
    """The home folder a canonical path lies in or is: the running user's `home`, else another user's
    (`/home/NAME`, `/Users/NAME`, `/root`); "" when it is in none."""
    home = home.rstrip("/")
    if home and (path == home or path.startswith(home + "/")):
        return home
    match = _HOME_FOLDER.match(path)
    return match.group(0) if match else ""


def below_home(path: str) -> str:
    """`path` without the home folder it lies in (`/home/dev/shop/config/app.yml` -> `/shop/config/app.yml`):
    what a path's words say of a file (a test's, a development copy's) are the project's, never the name of
    the user whose home holds it (`dev`, `test`)."""
    return _HOME_FOLDER.sub("", path, count=1)


# A test's own code and data: never part of what is deployed (`src/test/java/`, `__tests__/`, `x_test.go`)
_TEST_CODE = re.compile(
    r"(?i)(?:^|/)(?:tests?|spec|specs|__tests__|testdata|fixtures?)/|_test\.\w+$|\.test\.\w+$|Tests?\.\w+$"
)


def test_code(path: str) -> bool:
    """`path` is a test's code or data, by the words of the project's own folders and its name."""
    return _TEST_CODE.search(below_home(path)) is not None


def as_own_home(path: str, home: str) -> str:
    """`path` with the home folder it lies in replaced by the running user's (`/home/dev/.bashrc` ->
    `HOME/.bashrc`): what a rule keyed to the running user's home files should judge. Unchanged when it lies
    in no home folder."""
    found = home_folder(path, home)
    if not found or not home:
        return path
    return home.rstrip("/") + path[len(found) :]


SHELL_RC = _f("shell_rc", "a shell start-up file: runs in every new shell", "shell", asks=True)
FISH_RC = dataclasses.replace(SHELL_RC, content="fish")
_RC_NAMES = (
    ".bashrc",
    ".bash_profile",
    ".bash_login",
    ".bash_logout",
    ".bash_aliases",  # Debian's and Ubuntu's .bashrc sources it
    ".profile",
    ".zshrc",
    ".zprofile",
    ".zshenv",
    ".zlogin",
    ".zlogout",
    ".kshrc",
    ".cshrc",
    ".tcshrc",
    "config.fish",
    ".xprofile",
    ".xinitrc",
    ".xsession",
    ".inputrc",
)
# Files named like this hold start-up code only in a home folder (or /etc): in a project they are samples.
HOME_ONLY = frozenset((*_RC_NAMES, "crontab"))

# Last path component -> fact (wherever the file is, unless HOME_ONLY).
# An image's build file: every build runs its RUN lines, every container its ENTRYPOINT and CMD
DOCKERFILE = _f("dockerfile", "every image build runs its RUN lines", "dockerfile", severe_only=True)
# compose files: every `docker compose up` runs their services' commands with their mounts
COMPOSE = _f("compose", "docker compose runs its services", "compose", severe_only=True)

BY_NAME: dict[str, PathFact] = {
    **dict.fromkeys(_RC_NAMES, SHELL_RC),
    "config.fish": FISH_RC,
    "conftest.py": _f("conftest", "pytest imports it before every test run", "python"),
    "setup.py": _f("setup_py", "runs on every install or build of the package", "python"),
    "noxfile.py": _f("noxfile", "nox runs it", "python"),
    # debuggers' start-up files in a project (gdb's auto-loaded `.gdbinit`, lldb's `.lldbinit`): run when one
    # debugs there
    ".gdbinit": _f("gdbinit", "gdb runs its commands and Python when it starts here", "gdbinit"),
    ".lldbinit": _f("lldbinit", "lldb runs its commands and Python when it starts here", "lldbinit"),
    # machine learning projects' pipelines: `mlflow run` and `dvc repro` run their steps' commands
    "MLproject": _f("mlproject", "mlflow run runs its entry points' commands", "yaml_commands"),
    "dvc.yaml": _f("dvc_pipeline", "dvc repro runs its stages' commands", "yaml_commands"),
    "sitecustomize.py": _f("sitecustomize", "Python imports it at every interpreter start", "python"),
    "usercustomize.py": _f("usercustomize", "Python imports it at every interpreter start", "python"),
    "pytest.ini": _f("pytest_ini", "pytest reads its addopts (plugins) on every run", "pytest_ini"),
    "tox.ini": _f("tox_ini", "tox and pytest read commands and addopts from it", "ini_commands"),
    "setup.cfg": _f("setup_cfg", "pytest reads its addopts (plugins) on every run", "pytest_ini"),
    "package.json": _f("package_json", "npm runs its scripts (postinstall on every install)", "package_json"),
    # the build tool's own launcher, run by `./gradlew` and `./mvnw` on every build: a binary, read by no one
    "gradle-wrapper.jar": _f("wrapper_jar", "every ./gradlew runs it", "binary", blind=True),
    "maven-wrapper.jar": _f("wrapper_jar", "every ./mvnw runs it", "binary", blind=True),
    # dbt's packages: their macros run in every dbt run, with the warehouse's credentials
    "packages.yml": _f(
        "dbt_packages", "dbt installs them and runs their macros in every run", "dbt_packages"
    ),
    "dbt_project.yml": _f(
        "dbt_project", "dbt runs its hooks' SQL in the warehouse on every run", "dbt_project"
    ),
    "composer.json": _f("composer_json", "composer runs its scripts on install and update", "composer_json"),
    # deployment recipes: their commands run on every server they deploy to
    "Envoy.blade.php": _f("envoy", "Envoy runs its tasks on the servers they name", "envoy"),
    "deploy.php": _f("deployer", "Deployer runs its tasks on every server it deploys to", "quoted_literals"),
    "pyproject.toml": _f(
        "pyproject", "build hooks and task scripts run on install and by task runners", "pyproject"
    ),
    "Makefile": _f("makefile", "make runs its recipes", "makefile"),
    # MSBuild files: their targets' Exec tasks run on every build
    **dict.fromkeys(
        ("Directory.Build.props", "Directory.Build.targets", "Directory.Packages.props"),
        _f("msbuild", "every dotnet build runs its targets' commands", "msbuild"),
    ),
    # Ruby files the tools evaluate on every run: Bundler's Gemfile, rake's Rakefile, the consoles' rc files
    "Gemfile": _f(
        "gemfile", "bundler evaluates it as Ruby on every bundle, rake and rails command", "gemfile"
    ),
    "Rakefile": _f("rakefile", "rake evaluates it on every rake and rails command", "ruby"),
    # what a platform runs on deploy (Heroku's Procfile `release:` line, app.json's scripts), mix's aliases
    "Procfile": _f("procfile", "the platform runs its process lines (release: on every deploy)", "procfile"),
    "app.json": _f("app_json", "Heroku runs its scripts on the app's machines", "app_json"),
    # Deno's tasks and import map, Cloudflare's build command: run by `deno task` and every wrangler build
    **dict.fromkeys(
        ("deno.json", "deno.jsonc"),
        _f("deno_json", "deno runs its tasks and loads its imports from where they point", "deno_json"),
    ),
    **dict.fromkeys(
        ("wrangler.toml", "wrangler.json", "wrangler.jsonc"),
        _f("wrangler", "wrangler runs its build command on every deploy and dev run", "wrangler"),
    ),
    "mix.exs": _f("mix_exs", "mix runs its aliases' cmd steps", "mix_exs"),
    ".iex.exs": _f("iex_rc", "every iex session evaluates it", "exec_literals"),
    # Erlang's: the VM evaluates `~/.erlang` at every start; rebar3 runs its hooks' shell lines
    ".erlang": _f("erlang_rc", "every Erlang VM evaluates it at start", "exec_literals"),
    "rebar.config": _f("rebar_config", "rebar3 runs its hooks' shell lines on every build", "rebar_config"),
    # mobile builds: CocoaPods and fastlane evaluate Ruby, Xcode's build phases and Firebase's deploy hooks
    # run shell lines, Gradle's JVM options load agents into every build, Bitrise runs its script steps
    "Podfile": _f("podfile", "CocoaPods evaluates it as Ruby on every pod install", "gemfile"),
    # Foundry's settings: what its tests and scripts may do on this machine (run commands, touch files)
    "foundry.toml": _f(
        "foundry_toml", "forge runs the project's tests and scripts with its permissions", "foundry"
    ),
    # Swift's and Carthage's dependency lists, Mint's tools, SwiftPM's mirrors (`.swiftpm/configuration/
    # mirrors.json`): each names the repository code is built from
    **dict.fromkeys(
        (
            *("Package.swift", "Package.resolved", "Cartfile", "Cartfile.resolved", "Cartfile.private"),
            *("Mintfile", "mirrors.json"),
        ),
        _f(
            "swift_dependencies",
            "builds take each package from the repository it names",
            "swift_dependencies",
        ),
    ),
    "Fastfile": _f("fastfile", "fastlane evaluates it as Ruby on every lane", "ruby"),
    "Pluginfile": _f("pluginfile", "fastlane installs its gems and loads them on every lane", "gemfile"),
    "Appfile": _f("appfile", "fastlane evaluates it as Ruby on every lane", "ruby"),
    "project.pbxproj": _f("xcode_project", "Xcode runs its build phases' scripts on every build", "xcode"),
    "firebase.json": _f(
        "firebase_json", "the firebase CLI runs its predeploy and postdeploy hooks", "firebase_json"
    ),
    "gradle.properties": _f(
        "gradle_properties", "Gradle starts every build's JVM with its options", "gradle_properties"
    ),
    # Maven's: its JVM options, its build file's plugins and repositories; both tools' wrappers
    "jvm.config": _f("maven_jvm", "Maven starts every build's JVM with its options", "gradle_properties"),
    # the options every `mvn` run of the project takes (`.mvn/maven.config`)
    "maven.config": _f("maven_config", "every mvn run of the project takes its options", "maven_config"),
    # the shell script `mvn` sources before every run (`~/.mavenrc`, `/etc/mavenrc`)
    **dict.fromkeys(
        (".mavenrc", "mavenrc"), _f("mavenrc", "mvn sources it before every run", "shell", asks=True)
    ),
    # PHP's per-folder settings: read on every request the web server passes to PHP
    **dict.fromkeys(
        (".user.ini", "php.ini", ".htaccess"),
        _f("php_ini", "PHP applies it to every request of the site", "php_ini"),
    ),
    "pom.xml": _f("maven_pom", "maven runs its plugins and downloads from its repositories", "maven_pom"),
    **dict.fromkeys(
        ("gradle-wrapper.properties", "maven-wrapper.properties"),
        _f("build_wrapper", "every build downloads and runs the build tool it names", "build_wrapper"),
    ),
    "bitrise.yml": _f("ci", "CI runs its scripts with the project's secrets", "yaml_commands", blind=True),
    "codemagic.yaml": _f("ci", "CI runs its scripts with the project's secrets", "yaml_commands", blind=True),
    # CMake runs its commands and downloads at every configure and build, on every developer's machine and CI
    "CMakeLists.txt": _f("cmake", "cmake runs its commands and downloads at every configure", "cmake"),
    # Firebase's security rules: who may read and write every document and file
    "AndroidManifest.xml": _f("android_manifest", "Android builds the app from it", "android_config"),
    "Info.plist": _f("ios_plist", "iOS builds the app from it", "ios_plist"),
    # the site's list of apps that may open its links and read its saved passwords
    "apple-app-site-association": _f(
        "app_links", "iOS lets the apps it names open the site's links", "app_links"
    ),
    "assetlinks.json": _f("app_links", "Android lets the apps it names open the site's links", "app_links"),
    "network_security_config.xml": _f(
        "android_network", "the app trusts and connects as it says", "android_config"
    ),
    "firestore.rules": _f("security_rules", "Firebase enforces it on every read and write", "security_rules"),
    "storage.rules": _f("security_rules", "Firebase enforces it on every read and write", "security_rules"),
    "database.rules.json": _f(
        "security_rules", "Firebase enforces it on every read and write", "security_rules"
    ),
    ".pryrc": _f("ruby_rc", "every pry or rails console evaluates it", "ruby"),
    ".irbrc": _f("ruby_rc", "every irb or rails console evaluates it", "ruby"),
    # Gradle's build scripts are programs (Kotlin or Groovy) that every build runs
    **dict.fromkeys(
        ("build.gradle", "build.gradle.kts", "settings.gradle", "settings.gradle.kts"),
        _f("gradle_build", "gradle runs it on every build", "exec_literals"),
    ),
    "Dockerfile": DOCKERFILE,
    "Containerfile": DOCKERFILE,
    "build.rs": _f("build_rs", "cargo runs it before every build", "string_literals", severe_only=True),
    "Cargo.toml": _f("cargo_toml", "cargo builds its dependencies (their build scripts run)", "cargo_toml"),
    "makefile": _f("makefile", "make runs its recipes", "makefile"),
    "GNUmakefile": _f("makefile", "make runs its recipes", "makefile"),
    "justfile": _f("justfile", "just runs its recipes", "makefile"),
    "Justfile": _f("justfile", "just runs its recipes", "makefile"),
    ".pre-commit-config.yaml": _f(
        "pre_commit", "pre-commit runs its hook entries on every commit", "yaml_commands"
    ),
    ".envrc": _f("envrc", "direnv runs it on entering the folder", "shell"),
    # Haskell: a custom set-up program runs before every cabal build; GHCi runs its `:!` lines at every start
    "Setup.hs": _f("cabal_setup", "cabal runs it before every build (build-type: Custom)", "exec_literals"),
    "Setup.lhs": _f("cabal_setup", "cabal runs it before every build (build-type: Custom)", "exec_literals"),
    ".ghci": _f("ghci", "GHCi (and cabal repl) runs its commands at every start", "ghci"),
    # Build systems' files whose actions are command lines, read by their string literals: Bazel's and
    # Buck2's rules (a genrule's `cmd`), dune's `(system "...")` and `(run ...)` actions, Zig's build
    # program (`b.addSystemCommand`); every build or test runs them (implants only: builds do much)
    **dict.fromkeys(
        ("BUILD", "BUILD.bazel", "WORKSPACE", "WORKSPACE.bazel", "MODULE.bazel", "BUCK", "TARGETS", "dune"),
        _f("build_rules", "the build runs its rules' commands", "string_literals", severe_only=True),
    ),
    "build.zig": _f("build_rules", "zig build runs its build program", "string_literals", severe_only=True),
    # OCaml's toplevel runs its init file at every start (`Sys.command "..."`)
    ".ocamlinit": _f(
        "ocamlinit", "the OCaml toplevel (utop, dune utop) runs it at every start", "string_literals"
    ),
    # Haskell's project files: where packages come from (a repository, an index) and which snapshot
    **dict.fromkeys(
        ("cabal.project", "cabal.project.local", "cabal.project.freeze"),
        _f("cabal_project", "cabal builds the packages it takes from where it says", "cabal_project"),
    ),
    "stack.yaml": _f("stack_yaml", "stack builds the packages and snapshot it names", "stack_yaml"),
    # who can decrypt the project's secrets: a recipient added reads every secret from then on
    ".sops.yaml": _f("sops_config", "sops encrypts every secret to the recipients it lists", "recipients"),
    # who must review what: the security team's entries are a check as much as a scanner is
    "CODEOWNERS": _f("codeowners", "its owners must approve changes to what they own", "codeowners"),
    # a security scanner's settings: checks skipped, findings allowed by patterns that match everything
    **dict.fromkeys(
        (
            *("brakeman.yml", ".gitleaks.toml", "gitleaks.toml", ".bandit", "bandit.yml", ".semgrep.yml"),
            *(".sobelow-conf", "slither.config.json", "deny.toml"),
        ),
        _f("scanner_config", "the security scanner reads what to check from it", "scanner_config"),
    ),
    # what a security scanner leaves out: an entry that matches everything switches the scanner off
    **dict.fromkeys(
        (
            *(".gitleaksignore", ".semgrepignore", ".trivyignore", ".secretlintignore", ".trufflehogignore"),
            *("brakeman.ignore", ".sobelow-skips"),
        ),
        _f("scanner_ignore", "the security scanner skips what it lists", "scanner_ignore"),
    ),
    # which known vulnerabilities a dependency scanner or an audit lets through (Snyk's policy, Grype's and
    # OSV-Scanner's settings, npm audit's allow-lists)
    **dict.fromkeys(
        (".snyk", ".grype.yaml", "osv-scanner.toml", ".nsprc", "audit-ci.json", "audit-ci.jsonc"),
        _f(
            "vulnerability_ignore",
            "the dependency scanner lets the vulnerabilities it lists through",
            "vulns",
        ),
    ),
    # pnpm's hooks: code every install runs, which may rewrite where each dependency comes from
    ".pnpmfile.cjs": _f(
        "pnpmfile", "pnpm runs its hooks on every install, and they decide what is installed", "pnpmfile"
    ),
    # a project's own package sources: every install in it takes packages from the hosts they name
    **dict.fromkeys(
        (".npmrc", ".yarnrc", ".yarnrc.yml", "bunfig.toml", "uv.toml", "go.mod"),
        _f("project_package_source", "installs in the project take packages from it", "package_sources"),
    ),
    **dict.fromkeys(
        NUGET_CONFIG_NAMES,
        _f("project_package_source", "restores in the project take packages from it", "nuget_config"),
    ),
    **dict.fromkeys(
        ("requirements.txt", "constraints.txt", "requirements-dev.txt", "dev-requirements.txt"),
        _f("project_package_source", "installs in the project take packages from it", "requirements"),
    ),
    # PlatformIO's project file, ESP-IDF's component manifests, Zephyr's west manifest: every build takes
    # its libraries, components and projects from the addresses and namespaces they name
    **dict.fromkeys(
        ("platformio.ini", "idf_component.yml", "west.yml"),
        _f("project_package_source", "builds in the project take code from it", "package_sources"),
    ),
    # lockfiles: every install fetches each package from the address its entry was resolved to
    **dict.fromkeys(
        (
            *("package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml", "bun.lock"),
            *("poetry.lock", "uv.lock", "Pipfile.lock", "pdm.lock", "Gemfile.lock", "composer.lock"),
            *("Cargo.lock", "go.sum", "verification-metadata.xml", "gradle.lockfile", "Podfile.lock"),
            *("packages.lock.json", "mix.lock", "pubspec.lock", "Package.resolved", "MODULE.bazel.lock"),
        ),
        _f("lockfile", "installs fetch each package from the address it records", "package_sources"),
    ),
    "lefthook.yml": _f("lefthook", "lefthook runs its commands on every commit", "yaml_commands"),
    "lefthook.yaml": _f("lefthook", "lefthook runs its commands on every commit", "yaml_commands"),
    ".lefthook.yml": _f("lefthook", "lefthook runs its commands on every commit", "yaml_commands"),
    **dict.fromkeys(
        (".goreleaser.yaml", ".goreleaser.yml", "goreleaser.yaml", "goreleaser.yml"),
        _f("goreleaser", "goreleaser runs its hooks and signing commands on every release", "yaml_commands"),
    ),
    **dict.fromkeys(
        ("buf.gen.yaml", "buf.gen.yml"),
        _f("buf_gen", "buf runs its local plugins on every generate", "yaml_commands"),
    ),
    "Taskfile.yml": _f("taskfile", "task runs its commands", "yaml_commands"),
    "Taskfile.yaml": _f("taskfile", "task runs its commands", "yaml_commands"),
    **dict.fromkeys(("docker-compose.yml", "docker-compose.yaml", "compose.yml", "compose.yaml"), COMPOSE),
    ".gitlab-ci.yml": _f("ci", "CI runs its scripts with the project's secrets", "yaml_commands", blind=True),
    ".travis.yml": _f("ci", "CI runs its scripts with the project's secrets", "yaml_commands", blind=True),
    "azure-pipelines.yml": _f(
        "ci", "CI runs its scripts with the project's secrets", "yaml_commands", blind=True
    ),
    "Jenkinsfile": _f("ci", "CI runs it with the project's secrets", "jenkinsfile", blind=True),
    "authorized_keys": _f(
        "authorized_keys", "each key in it may log in as this user", "authorized_keys", asks=True
    ),
    "authorized_keys2": _f(
        "authorized_keys", "each key in it may log in as this user", "authorized_keys", asks=True
    ),
    "crontab": _f("cron", "cron runs its lines on a schedule", "cron", asks=True),
    ".k5login": _f(
        "k5login", "each Kerberos principal in it may log in as this user", "authorized_keys", asks=True
    ),
    # R's and Julia's start-up code (a project's `.Rprofile` runs in every R session started there)
    ".Rprofile": _f("r_profile", "R runs it at every start", "r"),
    "Rprofile.site": _f("r_profile", "R runs it at every start", "r"),
    "startup.jl": _f("julia_startup", "Julia runs it at every start", "julia"),
    "rc.local": _f("rc_local", "runs at every boot", "shell", asks=True),
    # agent instruction files: the next agent session reads them as its instructions
    "CLAUDE.md": _i("claude_md", "Claude Code reads it as instructions at every session start"),
    "CLAUDE.local.md": _i("claude_md", "Claude Code reads it as instructions at every session start"),
    "AGENTS.md": _i("agents_md", "Codex and other agents read it as instructions"),
    "AGENTS.override.md": _i("agents_md", "Codex reads it as instructions"),
    "GEMINI.md": _i("gemini_md", "Gemini CLI reads it as instructions"),
    ".cursorrules": _i("cursorrules", "Cursor reads it as instructions"),
    ".windsurfrules": _i("windsurfrules", "Windsurf reads it as instructions"),
    ".clinerules": _i("clinerules", "Cline reads it as instructions"),
    "copilot-instructions.md": _i("copilot_instructions", "GitHub Copilot reads it as instructions"),
    "CONVENTIONS.md": _i("conventions_md", "aider reads it as instructions when configured"),
    # aider's settings: the lint and test commands it runs after every edit
    ".aider.conf.yml": _f("aider_conf", "aider runs its lint and test commands after edits", "yaml_commands"),
}

# (pattern searched in the canonical path, fact), first match wins. `~` stands for the home folder.
# Servers that run Lua their configuration embeds, on every request they serve: OpenResty's and nginx's
# `*_by_lua_block`, Envoy's Lua filters, Kong's serverless functions in its declarative configuration
EMBEDDED_LUA = _f(
    "embedded_lua", "the server runs the Lua it embeds on every request", "embedded_lua", severe_only=True
)
_BY_PLACE: tuple[tuple[str, PathFact], ...] = (
    # Dart's build hooks (`hook/build.dart`, native assets): `dart` and `flutter` run them on every build
    (
        r"(?:^|/)hook/(?:build|link)\.dart$",
        _f("dart_build_hook", "dart and flutter run it on every build", "exec_literals", severe_only=True),
    ),
    # a Java program's launcher options (JetBrains IDEs' and Android Studio's `*.vmoptions`): a Java agent
    # named there runs inside the program at every start
    (
        r"\.vmoptions$",
        _f("vmoptions", "the Java program starts its JVM with these options", "gradle_properties"),
    ),
    (r"(?:^|/)(?:nginx|openresty)[^/]*/(?:[^/]+/)*[^/]+\.conf$|(?:^|/)nginx[^/]*\.conf$", EMBEDDED_LUA),
    (r"(?:^|/)(?:envoy|kong)[^/]*\.ya?ml$|(?:^|/)envoy/(?:[^/]+/)*[^/]+\.ya?ml$", EMBEDDED_LUA),
    # udev rules: the programs they name run as root whenever a matching device appears; the system's asks,
    # a project's copy (to be installed) is judged by what it runs
    (
        r"^/(?:etc|lib|usr/lib)/udev/rules\.d/[^/]+\.rules$",
        _f("udev", "udev runs its RUN programs as root", "udev", asks=True),
    ),
    (
        r"/udev/(?:rules\.d/)?[^/]+\.rules$",
        _f("udev", "udev runs its RUN programs as root once installed", "udev"),
    ),
    # a Jenkins pipeline by another name (`jenkins/Skyforge.Jenkinsfile`, `Jenkinsfile.release`)
    (
        r"/(?i:[^/]+\.jenkinsfile|jenkinsfile\.(?!(?:md|txt|rst|adoc|html)$)[^/]+)$",
        _f("ci", "CI runs it with the project's secrets", "jenkinsfile", blind=True),
    ),
    # an Unreal project or plug-in: its build steps run on every build of it
    (r"\.(?:uproject|uplugin)$", _f("unreal_project", "every build runs its build steps", "unreal_project")),
    # a dependency's patch (pnpm's `patchedDependencies`, patch-package's `patches/`): its added lines become
    # the dependency's own code at every install
    (
        r"/(?:patches|\.yarn/patches)/[^/]+\.(?:patch|diff)$",
        _f("dependency_patch", "every install applies it to a dependency's code", "patch"),
    ),
    # a compose file for one environment or an override (`docker-compose.prod.yml`, `compose.override.yaml`)
    (r"/(?:docker-)?compose\.[\w.-]+\.ya?ml$", COMPOSE),
    # an image's build file by another name (`docker/api.Dockerfile`, `Dockerfile.prod`, `Containerfile.dev`)
    (
        r"/(?i:[^/]+\.dockerfile|(?:dockerfile|containerfile)\.(?!(?:md|txt|rst|adoc|html|dockerignore)$)[^/]+)$",
        DOCKERFILE,
    ),
    # Slurm's and PBS's job scripts: the cluster runs each as a shell script, with the user's rights, on every
    # submission; Apptainer's (Singularity's) definition files: their sections run at every image build
    (r"/[^/]+\.(?:sbatch|slurm|pbs)$", _f("job_script", "the cluster runs it at every submission", "shell")),
    # an Elixir release's start-up script templates (`rel/env.sh.eex`): every release boot runs them
    (
        r"(?:^|/)rel/(?:[^/]+/)*[^/]+\.sh\.eex$",
        _f("release_env", "every start of the release runs it", "eex_shell"),
    ),
    (
        r"/(?:[^/]+\.def|Singularity(?:\.[\w.-]+)?|Apptainer(?:file)?(?:\.[\w.-]+)?)$",
        _f("apptainer_def", "every image build runs its %post section", "shell", severe_only=True),
    ),
    # Liquibase's changelogs: the SQL of their change sets runs on the database at the next update
    (
        r"/(?:db/)?changelog/.+\.(?:ya?ml|xml|json)$|/db\.changelog[\w.-]*\.(?:ya?ml|xml|json)$",
        _f(
            "sql",
            "Liquibase runs its change sets on the database at the next update",
            "sql",
            severe_only=True,
        ),
    ),
    # git hooks: judged by what they run (a linter, the tests), unknown content asks
    (r"/\.git/hooks/[^/]+$", _f("git_hook", "git runs it on the matching git command", "shell", blind=True)),
    (
        r"/\.githooks/[^/]+$",
        _f("git_hook", "git runs it once core.hooksPath names its folder", "shell", blind=True),
    ),
    (r"/\.git/config$", _f("git_config", "git runs the commands some of its keys name", "git_config")),
    # a Unity project's package manifest: the editor takes every package, and its registries, from it
    (
        r"/Packages/manifest\.json$",
        _f("project_package_source", "the Unity editor takes its packages from it", "package_sources"),
    ),
    (
        r"/(?:\.?venv|env|\.env)[\w.-]*/bin/activate(?:\.\w+)?$",
        _f("venv_activate", "the shell runs it whenever the virtual environment is activated", "shell"),
    ),
    (
        r"/\.cargo/config(?:\.toml)?$",
        _f(
            "cargo_config",
            "cargo runs the wrapper, runner and linker it names at every build",
            "cargo_config",
        ),
    ),
    # cargo-audit's settings (`.cargo/audit.toml`): the advisories it leaves out
    (
        r"/\.cargo/audit\.toml$",
        _f("scanner_config", "the security scanner reads what to check from it", "scanner_config"),
    ),
    (r"/\.husky/[^/]+$", _f("husky", "husky runs it as a git hook", "shell", blind=True)),
    (
        r"^~/\.gradle/(?:init\.d/[^/]+|init\.gradle(?:\.kts)?)$",
        _f("gradle_init", "gradle runs it before every build of every project", "exec_literals", asks=True),
    ),
    (
        r"/\.github/workflows/[^/]+$",
        _f("workflow", "CI runs its steps with the repository's secrets", "yaml_commands", blind=True),
    ),
    (
        # GitLab CI's included files: the project's own pipeline split into parts (`include: local:`)
        r"/\.gitlab/ci/.+\.ya?ml$|/[^/]+\.gitlab-ci\.ya?ml$",
        _f("ci", "CI runs its scripts with the project's secrets", "yaml_commands", blind=True),
    ),
    (
        r"/\.circleci/config\.yml$",
        _f("ci", "CI runs its scripts with the project's secrets", "yaml_commands", blind=True),
    ),
    (
        r"/\.vscode/tasks\.json$",
        _f("vscode_tasks", "the editor runs its tasks (some on opening the folder)", "vscode_tasks"),
    ),
    (
        r"/\.vscode/settings\.json$",
        _f(
            "vscode_settings",
            "the editor runs the programs its *.path and terminal keys name",
            "vscode_settings",
        ),
    ),
    (r"^~/\.ssh/config$", _f("ssh_config", "ssh runs its ProxyCommand and LocalCommand", "ssh_config")),
    # what a security team's tools alert on: Falco's and Wazuh's (OSSEC's) rules, Splunk's saved searches,
    # the Linux audit rules; each rule taken out or switched off is something that no longer raises an alert
    (
        r"(?:^|/)falco[^/]*/[^/]+\.ya?ml$|/falco_rules[\w.-]*\.ya?ml$|/(?:wazuh|ossec)[^/]*/(?:[^/]+/)*[^/]*rules[^/]*\.xml$"
        r"|/local_rules\.xml$|/savedsearches\.conf$|/audit(?:d)?/(?:[^/]+/)*[^/]+\.rules$|/audit\.rules$",
        _f("detections", "the security team is alerted by what it detects", "detections"),
    ),
    (
        r"^~/(?:\.gitconfig|\.config/git/config)$",
        _f("git_config", "git runs the commands some of its keys name, in every repository", "git_config"),
    ),
    (
        r"/\.devcontainer(?:/[^/]+)?/devcontainer\.json$|/\.devcontainer\.json$",
        _f(
            "devcontainer",
            "the editor runs its lifecycle commands (initializeCommand on the host)",
            "devcontainer",
        ),
    ),
    (
        # MCP clients' server lists: each server is a program the editor or agent starts
        r"/\.vscode/mcp\.json$|/\.roo/mcp\.json$|/\.kiro/settings/mcp\.json$|^~/\.codeium/windsurf/mcp_config\.json$"
        r"|^~/\.config/Code/User/mcp\.json$|/cline_mcp_settings\.json$",
        _f("mcp_servers", "the editor or agent starts every server it lists", "mcp_servers", asks=True),
    ),
    (
        r"/\.cargo/config(?:\.toml)?$",
        _f(
            "cargo_config",
            "cargo runs the runners, wrappers and aliases it names",
            "string_literals",
            severe_only=True,
        ),
    ),
    (r"^~/\.config/fish/(?:conf\.d|functions)/", FISH_RC),
    # programs that run what their start-up files say, in the user's home
    (
        r"^~/(?:\.vimrc|\.gvimrc|\.exrc|\.vim/vimrc|\.config/nvim/init\.(?:vim|lua)|\.config/nvim/(?:plugin|lua)/.+)$",
        _f("editor_rc", "the editor runs its commands at every start", "editor_commands"),
    ),
    (
        r"^~/(?:\.tmux\.conf|\.config/tmux/tmux\.conf)$",
        _f("tmux_conf", "tmux runs its run-shell lines", "tmux"),
    ),
    (r"^~/\.gdbinit$", _f("gdbinit", "gdb runs its commands and Python at every start", "gdbinit")),
    (
        r"^~/\.ipython/profile_[^/]+/(?:startup/[^/]+\.(?:py|ipy)|ipython_(?:kernel_)?config\.py)$",
        _f("ipython_startup", "IPython runs it in every shell and notebook kernel", "ipython"),
    ),
    (
        r"^~/(?:\.ccache|\.config/ccache)/ccache\.conf$|^/etc/ccache\.conf$",
        _f("ccache_conf", "ccache runs its prefix command at every compile", "ccache_conf"),
    ),
    (
        r"^~/\.conan2?/profiles/[^/]+$",
        _f("conan_profile", "conan applies its environment and toolchain to every build", "conan_profile"),
    ),
    (
        r"^~/\.lldbinit(?:-[\w.]+)?$",
        _f("lldbinit", "lldb runs its commands and Python at every start", "lldbinit"),
    ),
    (
        r"^~/\.aws/config$",
        _f("aws_config", "the AWS CLI runs its credential_process on every call", "credential_process"),
    ),
    (
        r"^~/(?:\.curlrc|\.wgetrc|\.config/curlrc)$",
        _f(
            "fetcher_rc",
            "curl or wget read it on every run (a proxy set there sees every fetch)",
            "text",
            asks=True,
        ),
    ),
    (
        r"^~/\.local/share/applications/[^/]+\.desktop$|^~/\.config/autostart/[^/]+\.desktop$",
        _f(
            "desktop_entry",
            "the desktop runs its Exec line when the application is started",
            "systemd",
            asks=True,
        ),
    ),
    (
        # where packages come from: an index or registry put here serves every later install
        r"^(?:~/\.config/pip/pip\.conf|~/\.pip/pip\.conf|~/\.pydistutils\.cfg|/etc/pip\.conf"
        r"|~/\.config/uv/uv\.toml|~/\.condarc|~/\.yarnrc(?:\.yml)?|~/\.gemrc|~/\.cargo/config(?:\.toml)?"
        r"|~/\.m2/settings\.xml|~/\.gradle/gradle\.properties|~/\.bunfig\.toml)$",
        _f("package_source", "every later install takes packages from the source it names", "text"),
    ),
    (r"^~/\.ssh/rc$", _f("ssh_rc", "sshd runs it at every login", "shell", asks=True)),
    (
        # a build's own extensions: the code they name is fetched and loaded into every build, with its rights
        r"(?:^|/)\.mvn/extensions\.xml$",
        _f("build_extensions", "Maven loads the extensions it names into every build", "text", asks=True),
    ),
    (
        # a home bin folder comes before the system's on PATH: a file here runs in place of the command
        # of its name (`~/.local/bin/git`, `~/bin/sudo`), and so do the toolchains' own bin folders that
        # their installers put on PATH (`~/.cargo/bin`, `~/go/bin`, Dart's `~/.pub-cache/bin`)
        r"^~/(?:\.local/bin|bin|\.cargo/bin|go/bin|\.pub-cache/bin|\.deno/bin|\.bun/bin|\.volta/bin"
        r"|\.npm-global/bin|\.yarn/bin|\.dotnet/tools)/[^/]+$",
        _f("home_bin", "runs whenever its name is typed, ahead of the system's command", "shell", asks=True),
    ),
    (
        # (and Bundler's settings: a mirror of rubygems.org, its TLS checks)
        r"/requirements[\w.-]*\.(?:txt|in)$|/constraints[\w.-]*\.txt$|/\.?venv[\w.-]*/pip\.conf$|/\.bundle/config$",
        _f("project_package_source", "installs in the project take packages from it", "package_sources"),
    ),
    (
        r"/(?:site|dist)-packages/[^/]+\.pth$",
        _f("pth", "Python runs its import lines at every interpreter start", "pth", asks=True),
    ),
    (r"\.pth$", _f("pth", "Python runs its import lines when its folder is a site directory", "pth")),
    (
        r"/(?:site|dist)-packages/(?:site|user)customize\.py$",
        _f("sitecustomize", "Python imports it at every interpreter start", "python", asks=True),
    ),
    (r"^(?:/etc/cron|/var/spool/cron)", _f("cron", "cron runs its lines on a schedule", "cron", asks=True)),
    (
        r"^/etc/logrotate\.(?:conf$|d/)",
        _f("logrotate", "logrotate runs its scripts as root at every rotation", "logrotate", asks=True),
    ),
    (  # the project's own, which its deployment installs there
        r"(?:^|/)logrotate(?:[._-][^/]*)?$|/logrotate\.d/[^/]+$",
        _f("logrotate", "logrotate runs its scripts as root at every rotation, once deployed", "logrotate"),
    ),
    (
        r"^(?:/etc/systemd|/lib/systemd|/usr/lib/systemd|~/\.config/systemd)/",
        _f("systemd", "systemd runs its Exec lines", "systemd", asks=True),
    ),
    (
        r"^(?:~)?/Library/Launch(?:Agents|Daemons)/",
        _f("launchd", "launchd runs its ProgramArguments", "launchd", asks=True),
    ),
    (
        r"^~/\.config/autostart/",
        _f("autostart", "the desktop runs its Exec line at login", "systemd", asks=True),
    ),
    # direnv's own start-up file, sourced before every `.envrc` it loads
    (
        r"^~/(?:\.config/direnv/direnvrc|\.direnvrc)$",
        _f("direnvrc", "direnv runs it before every .envrc it loads", "shell", asks=True),
    ),
    # the variables every program of the user's session starts with (`LD_PRELOAD=...` included)
    (
        r"^~/(?:\.config/environment\.d/[^/]+\.conf|\.pam_environment)$",
        _f(
            "session_environment",
            "every program of the user's session starts with these variables",
            "session_environment",
        ),
    ),
    # the packages asdf and mise install into every new Node, Python, Ruby or Go they install
    (
        r"^~/\.default-(?:npm|python|gems|golang|cargo|perl)-packages$",
        _f(
            "default_packages",
            "installed into every new language version asdf or mise installs",
            "shell",
            asks=True,
        ),
    ),
    # a desktop app framework's configuration: the commands its CLI runs before every build and dev run
    (
        r"(?:^|/)(?:tauri\.conf\.json5?|Tauri\.toml|tauri\.\w+\.conf\.json)$",
        _f("app_build_config", "the framework's CLI runs its commands before every build", "command_keys"),
    ),
    # the lists a shell's plugin manager, Homebrew's bundle and mise install from, by repository or tap
    (
        r"(?:^|/)(?:\.zsh_plugins(?:\.txt)?|fish_plugins|\.?Brewfile|\.?mise(?:\.local)?\.toml|\.tool-versions)$",
        _f("plugin_list", "its plugin manager installs and loads what it names", "plugin_list"),
    ),
    # a dotfile manager's set-up script, in the home folder or in the dotfiles repository that holds it
    (
        r"(?:^|/)\.config/yadm/bootstrap(?:##[^/]*)?$|(?:^|/)(?:\.chezmoiscripts/|run_(?:once|onchange)_)[^/]*$",
        _f("dotfiles_script", "the dotfile manager runs it when it sets a machine up or applies", "shell"),
    ),
    (
        r"^/etc/(?:profile\.d/|profile$|bash\.bashrc$|zsh/|environment$)",
        _f("shell_rc", "a shell start-up file: runs in every new shell", "shell", asks=True),
    ),
    (r"^/etc/init\.d/", _f("init_d", "runs at boot", "shell", asks=True)),
    # PowerShell's profiles: every new PowerShell session runs them
    (
        r"^~/(?:\.config/powershell|Documents/(?:Windows)?PowerShell)/(?:[\w.]+_)?profile\.ps1$"
        r"|^/(?:opt/microsoft/powershell/\d+|etc/powershell)/(?:[\w.]+_)?profile\.ps1$",
        _f("powershell_profile", "every new PowerShell session runs it", "string_literals", asks=True),
    ),
    (r"/\.cursor/rules/[^/]+$", _i("cursor_rules", "Cursor reads it as instructions")),
    (r"/\.github/instructions/[^/]+$", _i("copilot_instructions", "GitHub Copilot reads it as instructions")),
    (
        r"/\.claude/(?:commands|agents|skills)/",
        _i("claude_commands", "Claude Code runs it as a command, sub-agent or skill"),
    ),
    (r"/\.gemini/commands/", _i("gemini_commands", "Gemini CLI runs it as a command")),
    (r"/\.codex/prompts/", _i("codex_prompts", "Codex runs it as a prompt")),
    (r"/\.windsurf/rules/", _i("windsurf_rules", "Windsurf reads it as instructions")),
    (r"^~/\.claude/projects/[^/]+/memory/", _i("agent_memory", "Claude Code reads it as the user's memory")),
    # Ansible playbooks, roles and inventories' variables: the tasks run on every server it manages
    (
        r"/(?:ansible|playbooks?)/(?:[^/]+/)*[^/]+\.ya?ml$|/roles/[^/]+/(?:tasks|handlers)/[^/]+\.ya?ml$",
        _f("ansible", "Ansible runs its tasks on every server it manages", "ansible"),
    ),
    # a Rails or Phoenix project's set-up scripts, run by every developer who sets the project up
    (
        r"/bin/(?:setup|update|dev)$",
        _f("bin_setup", "every developer runs it to set the project up", "string_literals"),
    ),
    # Nomad's job files (what every node runs), and HashiCorp's policies and server settings (who may do
    # what in Vault, Consul and Nomad)
    (
        r"\.nomad(?:\.hcl)?$",
        _f("nomad_job", "Nomad runs the tasks it describes on the next deploy", "nomad_job"),
    ),
    (
        r"/(?:vault|consul|nomad|policies|acl)/(?:[^/]+/)*[^/]+\.(?:hcl|json)$",
        _f("hashicorp_policy", "Vault, Consul or Nomad grants and enforces what it says", "hashicorp_policy"),
    ),
    # a cloud's templates (CloudFormation, AWS SAM, the Serverless Framework): the next deploy builds what
    # they say, who may call each function, which stores survive the stack, what a role may do
    (
        r"/(?:serverless\.ya?ml|template\.ya?ml|[\w.-]+\.template\.(?:json|ya?ml)|cloudformation/(?:[^/]+/)*[^/]+\.(?:json|ya?ml))$",
        _f("cloud_template", "the next deploy builds the cloud resources it describes", "cloud_template"),
    ),
    # what configuration management pushes to every server it manages: roles' templates, files and variables
    (
        r"/(?:group_vars|host_vars|roles/[^/]+/(?:templates|files|defaults|vars))/(?:[^/]+/)*[^/]+"
        r"(?<!\.sh)(?<!\.py)(?<!\.rb)(?<!\.pl)(?<!\.ps1)(?<!\.js)$",  # (a script there is a script)
        _f(
            "managed_config", "configuration management pushes it to every server it manages", "system_config"
        ),
    ),
    # a package's maintainer scripts run as root on every machine that installs it; its build recipes, cron
    # files and service units are installed and run the same way; CMake's modules run at configure
    (
        r"/debian/(?:[\w.+-]+\.)?(?:postinst|preinst|postrm|prerm|config)$",
        _f("maintainer_script", "runs as root on every machine that installs the package", "shell"),
    ),
    (r"/debian/rules$", _f("debian_rules", "every package build runs its recipes", "makefile")),
    (
        r"/debian/(?:[\w.+-]+\.)?cron\.(?:d|daily|hourly|weekly|monthly)$|/cron\.d/[^/]+$",
        _f("packaged_cron", "the package installs it: cron runs its lines on every machine", "cron"),
    ),
    (  # (wherever the project keeps it: a package's, a deployment's, a device image's recipe files)
        r"/[^/]+\.(?:service|timer|socket)$",
        _f("packaged_unit", "once installed, systemd runs its Exec lines as the service", "systemd"),
    ),
    (r"\.cmake$", _f("cmake", "cmake runs its commands and downloads at every configure", "cmake")),
    # Capistrano's deploy configuration and tasks: every deploy runs their commands on the servers
    (
        r"/(?:Capfile|config/deploy\.rb|config/deploy/[^/]+\.rb|lib/capistrano/tasks/[^/]+\.(?:rake|rb|cap))$",
        _f("capistrano", "every deploy runs its tasks' commands on the servers", "capistrano"),
    ),
    (
        r"\.spec$",
        _f("rpm_spec", "its scriptlets run as root on every machine that installs the package", "rpm_spec"),
    ),
    # Yocto's recipes, appends and classes: bitbake runs their tasks at every build, and what they install
    # runs on every device the image is flashed to
    (
        r"\.(?:bb|bbappend|bbclass)$",
        _f("bitbake", "bitbake runs its tasks at every build; the image it makes runs on devices", "bitbake"),
    ),
    # Kubernetes manifests, Helm charts and Kustomize overlays: the cluster runs what they describe
    (
        r"/(?:k8s|kube|kubernetes|manifests?|deploy(?:ment)?s?|charts?|helm|kustomize|overlays)/(?:[^/]+/)*"
        r"[^/]+\.ya?ml$",
        MANIFEST,
    ),
)
_PLACES = tuple((re.compile(pattern), fact) for pattern, fact in _BY_PLACE)
_ANY_PLACE = re.compile("|".join(f"(?:{p})" for p, _ in _BY_PLACE))


# Program code: it runs when someone runs the project, its tests or the script. By extension, how it runs.
_PROGRAM_CONTENT = {
    ".py": "python",
    ".pyw": "python",
    ".ipynb": "notebook",  # its cells (or one cell's source, from NotebookEdit): run when the notebook is
    ".sh": "shell",
    ".ps1": "powershell",
    ".psm1": "powershell",
    ".bash": "shell",
    ".zsh": "shell",
    ".js": "node",
    ".mjs": "node",
    ".cjs": "node",
    ".ts": "node",
    ".rb": "ruby",
    ".rake": "ruby",
    ".gemspec": "ruby",
    ".ru": "ruby",
    ".pl": "perl",
    ".pm": "perl",
    ".php": "php",
    ".r": "r",
    ".jl": "julia",
    ".lua": "lua",
    # languages Limen does not parse: the command lines their process calls are given, as string literals
    **dict.fromkeys(
        (".go", ".rs", ".java", ".kt", ".scala", ".cs", ".c", ".cc", ".cpp", ".h", ".hpp", ".swift", ".dart"),
        "exec_literals",
    ),
    # game engines' scripts: Godot's GDScript (`.gd`), run by the editor (`@tool`) and by every player
    **dict.fromkeys(
        (".gd",),
        "exec_literals",
    ),
    # sbt's build definitions (`build.sbt`, `project/*.sbt`, `~/.sbt/1.0/global.sbt`) and Scala scripts
    # (Mill's `build.sc`, Ammonite's): Scala the build runs on every load
    **dict.fromkeys(
        (".sbt", ".sc"),
        "exec_literals",
    ),
    # Salesforce's Apex classes, triggers and scripts, and Visualforce pages: what the org runs
    **dict.fromkeys((".cls", ".trigger", ".apex", ".page", ".component"), "exec_literals"),
    # controllers' programs in IEC 61131-3 Structured Text (`.st`, and the `.scl` Siemens writes it in): the
    # code a PLC runs, its interlocks and trips among it
    **dict.fromkeys((".st", ".scl"), "exec_literals"),
    # policy languages (Open Policy Agent's Rego, AWS Cedar): the code that decides who may do what
    **dict.fromkeys((".rego", ".cedar"), "exec_literals"),
    # Haskell, OCaml and Zig: services and their build code
    **dict.fromkeys(
        (".hs", ".lhs", ".ml", ".mli", ".zig"),
        "exec_literals",
    ),
    # Elixir's and Erlang's (Elixir's scripts too: `mix.exs` and `config/*.exs` run on every mix task)
    **dict.fromkeys((".ex", ".exs", ".erl", ".hrl"), "exec_literals"),
    # smart contracts (Solidity, Vyper): deployed, their code holds and moves what users give them
    **dict.fromkeys((".sol", ".vy"), "exec_literals"),
    # components with markup (JSX, single-file components): read the same way, by their literals
    **dict.fromkeys(
        (".tsx", ".jsx", ".vue", ".svelte", ".astro", ".kts", ".gradle", ".groovy"),
        "exec_literals",
    ),
}
PROGRAMS = {
    ext: PathFact(
        "program",
        "program code: runs when the project, its tests or the script run",
        PERSISTENCE,
        how,
        severe_only=True,
    )
    for ext, how in _PROGRAM_CONTENT.items()
}


# Folders whose files a web site hands to every visitor (a project's `public/`, Magento's `pub/media/`,
# WordPress's `uploads/`, a server's `/var/www/`): what is put there is published
SERVED_FOLDER = re.compile(
    r"/(public|static|www|wwwroot|htdocs|public_html|assets|dist|uploads)/[^/]+|^/(?:var/www|srv/www)/[^/]+"
    r"|(?<=.)/media/[^/]+"  # (a site's `media/`; `/media/USER/DISK` is where removable disks are mounted)
)


# By-products a program leaves and makes again (temporary files, logs, backups, editor swap files, compiled
# objects, partial downloads): sweeping every one of them from a folder loses nothing of its data
DISPOSABLE_EXTENSIONS = frozenset(
    {".tmp", ".temp", ".log", ".bak", ".old", ".orig", ".rej", ".swp", ".swo", ".pyc", ".pyo", ".o", ".obj"}
    | {".class", ".pid", ".cache", ".part", ".crdownload", ".dmp", ".core", ".~lock"}
)


# What a program printed as it ran (a log, a journal, a job's output) or a page written to be read (a
# manual, a README): searched for the word `password`, it tells of failed logins, not of a stored credential
TRANSCRIPT_OR_DOCUMENT = re.compile(
    r"(?i)(?:^|/)(?:log|logs|journal|man|doc|docs)/|\.(?:log|out|err|journal|md|rst|adoc|html?|[1-9])(?:\.\d+)?"
    r"(?:\.gz)?$"
)


# Documents, tables, pictures, signatures and checksum lists, by their names: what no program runs as it is
DOCUMENT_FILE = re.compile(
    r"(?i)\.(?:pdf|xlsx?|docx?|pptx?|od[tsp]|csv|tsv|txt|md|rst|png|jpe?g|gif|svg|webp|asc|sig|sha(?:256|512)"
    r"|md5)$|(?:^|/)(?:SHA256SUMS|SHA512SUMS|MD5SUMS|CHECKSUMS)$"
)


# System settings about how passwords are checked, never holding one (`grep -i password /etc/ssh/sshd_config`
# asks whether password logins are allowed)
CREDENTIAL_POLICY_SETTINGS = re.compile(
    r"^/etc/(?:ssh/sshd?_config(?:\.d/|$)|pam\.d/|login\.defs$|security/|sudoers(?:\.d/|$)|nsswitch\.conf$)"
)


# Folders of what tools fetch or build again on demand (`~/.cache`, macOS's `Caches`, npm's `_cacache`,
# Gradle's and Maven's downloads): what lies in them is a copy, never the only home of a credential
CACHE_FOLDER = re.compile(
    r"/(?:\.cache|Caches|__pycache__|_cacache|\.gradle/caches|\.m2/repository|\.cargo/registry|\.rustup/toolchains"
    r"|\.sccache|\.npm/_npx)/"
)


# MSBuild project files: their targets' Exec tasks run on every build
BUILD_FILES = {
    ext: _f("msbuild", "every dotnet build runs its targets' commands", "msbuild")
    for ext in (".csproj", ".fsproj", ".vbproj", ".proj", ".targets", ".props")
} | {
    # a Haskell package's description: cabal builds its dependencies, and a custom set-up program
    ".cabal": _f("cabal_file", "cabal builds its dependencies and runs its set-up", "cabal_file"),
    # an Apple app's entitlements: the rights and runtime exceptions it is signed with
    ".entitlements": _f("entitlements", "the app is signed with the rights it lists", "ios_plist"),
    # an Xcode scheme: its pre- and post-actions' scripts run on every build, test and run of it
    ".xcscheme": _f("xcode_scheme", "Xcode runs its actions' scripts on every build, test and run", "xcode"),
    # Bazel's extension code, an opam package's build and install commands: run on every build or install
    ".bzl": _f("build_rules", "the build runs its rules' commands", "string_literals", severe_only=True),
    ".opam": _f(
        "opam_file",
        "opam runs its build and install commands on every install",
        "string_literals",
        severe_only=True,
    ),
    # a Puppet manifest: every agent run applies it, its `exec` resources' commands included (implants only:
    # a manifest does much)
    ".pp": _f(
        "puppet",
        "every Puppet agent run applies it, and runs its exec resources",
        "string_literals",
        severe_only=True,
    ),
    # a CocoaPods pod's specification: every project that installs the pod runs its prepare_command and
    # script phases
    ".podspec": _f(
        "podspec", "CocoaPods runs its prepare_command and script phases on every pod install", "podspec"
    ),
    # a Lua rock's specification: LuaRocks runs its build and install commands on every install of it
    ".rockspec": _f(
        "rockspec",
        "luarocks runs its build and install commands on every install",
        "rockspec",
        severe_only=True,
    ),
}


# Web pages and their templates: a `<script src>` runs that host's code in every visitor's browser
PAGES = {
    ext: _f("page", "every visitor's browser runs the scripts it loads", "page", severe_only=False)
    for ext in (".html", ".htm", ".erb", ".ejs", ".hbs", ".njk", ".liquid", ".twig", ".jinja", ".j2")
}


# Infrastructure as code: what it describes is made by the next apply, often by CI, with its credentials;
# SQL scripts (migrations, seeds): the database runs them when they are applied
INFRASTRUCTURE = {
    ".tf": _f("terraform", "terraform apply makes what it describes", "terraform"),
    ".bicep": _f("terraform", "a deployment of it makes what it describes", "terraform"),
    ".sql": _f("sql", "the database runs it when the migration or seed is applied", "sql", severe_only=True),
    # a NixOS module or a flake: the machines it builds run its units' scripts, a dev shell runs its hook
    ".nix": _f("nix", "Nix builds it and NixOS hosts run what it declares", "nix"),
}


def by_shebang(text: str) -> PathFact | None:
    """What a file without a telling name is, by its `#!` line (`bin/docker-entrypoint`: `#!/bin/bash`)."""
    if not text.startswith("#!"):
        return None
    line = text[2:].split("\n", 1)[0].strip().split()
    if not line:
        return None
    program = line[1] if line[0].endswith("/env") and len(line) > 1 else line[0].rsplit("/", 1)[-1]
    for ext, prefixes in _SHEBANGS:
        if program.startswith(prefixes):
            return PROGRAMS[ext]
    return None


_SHEBANGS = (
    (".sh", ("sh", "bash", "zsh", "dash", "ksh")),
    (".py", ("python", "pypy")),
    (".js", ("node", "deno", "bun")),
    (".rb", ("ruby",)),
    (".pl", ("perl",)),
    (".php", ("php",)),
)


# chezmoi's source state (`dot_zshrc`, `private_dot_ssh/config.tmpl`, `dot_config/fish/config.fish`): each
# file there becomes the home folder's file of the name it encodes at the next `chezmoi apply`. A name's
# attributes come first (`private_`, `executable_`...), `dot_` stands for a leading dot, `.tmpl` marks a
# template
_CHEZMOI_ATTRIBUTES = re.compile(
    r"^(?:(?:encrypted|private|readonly|empty|executable|exact|remove|external|create|modify|literal)_)*"
)
_CHEZMOI_SUFFIXES = (".tmpl", ".literal", ".age", ".asc")


def managed_target(path: str, home: str) -> str:
    """The home folder's file a dotfile manager's source file becomes (chezmoi's `dot_` names, from the first
    folder or file so named): "" for a path with no such name."""
    if "dot_" not in path or not home:
        return ""
    parts = path.split("/")
    first = next(
        (i for i, part in enumerate(parts) if _CHEZMOI_ATTRIBUTES.sub("", part, count=1).startswith("dot_")),
        -1,
    )
    if first < 0:
        return ""
    names = [_CHEZMOI_ATTRIBUTES.sub("", part, count=1) for part in parts[first:]]
    last = names[-1]
    for suffix in _CHEZMOI_SUFFIXES:
        if last.endswith(suffix) and len(last) > len(suffix):
            names[-1] = last = last[: -len(suffix)]
    names = ["." + n[4:] if n.startswith("dot_") else n for n in names]
    return home.rstrip("/") + "/" + "/".join(names)


@functools.lru_cache(maxsize=4096)
def describe(path: str, *, home: str) -> PathFact | None:
    """What a canonical absolute path is for, when it is persistence, agent instructions, program code or
    infrastructure; else None. (A function of the text alone, remembered: a project's paths come back.) A
    dotfile manager's source file is what the home file it becomes is (`managed_target`)."""
    found = _describe(path, home=home)
    if found is None and (target := managed_target(path, home)):
        # judged by what it holds, never asked for as such: editing its source is a dotfiles repository's work
        found = _describe(target, home=home)
        if found is not None and (found.asks or found.blind):
            found = dataclasses.replace(found, asks=False, blind=False)
    if found is None:
        dot = path.rfind(".")
        if dot > path.rfind("/"):
            ext = path[dot:].lower()
            return PROGRAMS.get(ext) or INFRASTRUCTURE.get(ext) or PAGES.get(ext) or BUILD_FILES.get(ext)
    return found


def _describe(path: str, *, home: str) -> PathFact | None:
    name = path.rsplit("/", 1)[-1]
    found = home_folder(path, home)
    in_home = bool(found) and path != found
    local = "~" + path[len(found) :] if in_home else path
    fact = BY_NAME.get(name)
    if fact is not None and name in HOME_ONLY and not (in_home or path.startswith("/etc/")):
        fact = None
    if fact is not None and fact.asks:
        return fact
    if _ANY_PLACE.search(local):
        for pattern, place in _PLACES:
            if pattern.search(local):
                return place if fact is None or place.asks else fact  # where it sits may make it ask
    return fact

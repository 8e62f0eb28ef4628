"""Programs: what each command does, as facts the shell normaliser and every command rule ask by role.

One `Program` per command (with its aliases): its roles (reads, writes, deletes, sends, downloads, runs an
argument as a command or as code, remote shell, package installer...), the options that take a value, from
which operand on its operands are files, the options whose value is a command line it runs, and for
infrastructure and database tools the sub-commands that destroy. Nobody keeps a private list of command
names: `names(Role.SENDS)` is the one answer to "which commands carry data out".

Lookups are by base name (`/usr/bin/curl` is the normaliser's business). A `family` program also answers for
its versioned or typed names: `python3.11`, `node18`, `mkfs.ext4`.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, fields
from enum import StrEnum

from limen.facts.hosts import FREE_MAIL_DOMAINS
from limen.facts.packages import CONDA_CHANNELS


class Role(StrEnum):
    """What a program does (a program has several)."""

    SHELL = "shell"  # runs a shell line: `-c LINE`, a script operand, or what arrives on stdin
    INTERPRETER = "interpreter"  # runs code in another language (`-c`/`-e CODE`, a script, stdin), analysed
    SCRIPT_HOST = "script_host"  # runs code in a language Limen does not analyse (PowerShell, osascript...)
    WRAPPER = "wrapper"  # runs its operands as a command (sudo, env, timeout, nohup...)
    RUNNER = "runner"  # runs a package's program or a project command (`npx X`, `uvx X`, `poetry run X`)
    RUNS_OPTION = "runs_option"  # an option's value is a command line it runs (`rsync -e`, `vim -c '!x'`)
    CONTAINER = "container"  # runs a container; its command runs inside (host mounts matter)
    READS = "reads"  # reads its file operands
    WRITES = "writes"  # writes (content or metadata of) every file operand
    COPIES = "copies"  # reads its operands and writes the last one (cp, install, ln)
    METADATA = "metadata"  # changes only metadata: the content a file held survives
    DELETES = "deletes"  # deletes its file operands (not merely empty directories)
    RECURSIVE = "recursive"  # deletes recursively without being asked to (rimraf)
    WIPES = "wipes"  # overwrites file contents beyond recovery
    BLOCK_DEVICE = "block_device"  # formats, partitions or overwrites disks
    PARTITIONS = "partitions"  # edits partition tables (destroys only with a delete or zap option)
    STORAGE_DESTROYER = "storage_destroyer"  # destroys pools, volumes or datasets
    SENDS = "sends"  # carries data to the host it reaches
    DOWNLOADS = "downloads"  # its output may be data fetched from the network
    NETWORK = "network"  # opens raw network connections
    DNS = "dns"  # resolves names (the query name can carry data)
    REMOTE_LOGIN = "remote_login"  # runs commands on another machine
    REMOTE_SHELL = "remote_shell"  # remote-shell tooling (reverse and bind shells)
    PACKAGE_INSTALLER = "package_installer"
    PACKAGE_PUBLISHER = "package_publisher"
    PRIVILEGED = "privileged"  # runs as another user
    INFRA_DESTROYER = "infra_destroyer"  # an infrastructure CLI with sub-commands that destroy resources
    DATABASE_CLIENT = "database_client"  # runs SQL (or a database's own commands) it is given
    SERVER_CLIENT = "server_client"  # connects to the database server its `-h`/`--host` option names
    EMBEDDED_DATABASE = "embedded_database"  # its database is a local file (sqlite3, duckdb)
    DECODER = "decoder"  # decodes its input (base64 -d, xxd -r)
    TEXT_ONLY = "text_only"  # prints or matches text: its words are never URLs it fetches
    SCRIPT_FIRST = "script_first"  # its first operand is a script or pattern unless `-e`/`-f` gave one
    FILTER = "filter"  # narrows the text it reads
    ENV_SETTER = "env_setter"  # sets shell variables (export, declare)
    PROCESS_KILLER = "process_killer"  # signals processes
    FINDS_PROCESSES = "finds_processes"  # prints the processes whose names match its operand (pgrep, pidof)
    LOCATES_PROGRAM = "locates_program"  # prints where the program it names lies (`which X`, `command -v X`)
    POWER = "power"  # stops or restarts the machine
    BUILDS = "builds"  # runs the build file of the folder it works in (a Makefile's recipes, build.gradle)
    SECURITY_CONTROL = "security_control"  # configures a firewall, access control, auditing or a mitigation
    AGENT = "agent"  # a coding agent's CLI: its settings hold its hooks and MCP servers
    SERVER = "server"  # answers others' requests (a cache, a database, a node): how it starts says who may
    TUNNEL = "tunnel"  # makes a local port reachable from the internet (every call, or those `exposes` names)
    MAILS = "mails"  # sends mail to the addresses among its words (`mail -a FILE x@host`)
    LOADS_CODE = "loads_code"  # loads native code from a file it is given (the calls `loads_library` names)
    # starts a user's shell: it runs the value of a `command_options` option, else it is interactive and runs
    # whatever reaches it (`su`, `su - root`, `newgrp docker`)
    STARTS_SHELL = "starts_shell"
    # interactive, and runs a shell command typed into it (`!sh` in a pager or an editor): run as root, it is
    # a root shell (`sudo less FILE`, `sudo vim`, `sudo man man`)
    SHELL_ESCAPE = "shell_escape"
    SIMULATOR = "simulator"  # makes, boots, erases and deletes simulated devices on this machine (`simctl`)
    # compiles (and may run) code in a language Limen does not read: given code the same line wrote, or
    # code on its input, what runs is not analysed (`cat > x.go <<EOF ... EOF; go run x.go`)
    COMPILES = "compiles"
    # only reads and prints: of its own accord it writes, deletes, runs, sends and changes nothing, so the
    # rules about acting (destroying, granting, sending, persisting) have nothing in it to judge; what it is
    # told to write (`sort -o F`, a redirect) is a written path, and a `find -exec` command is a command of
    # its own (`only_inspects`)
    INSPECTS = "inspects"
    # administers what it names elsewhere (a directory's account unlocked, a cloud's machine started, a
    # mailbox's auto-reply set): nothing of this machine's read, written or sent; its `changes`
    ADMINISTERS = "administers"


@dataclass(slots=True, frozen=True)
class Program:
    """One command: what it does and how its words are read."""

    name: str
    roles: frozenset[Role]
    aliases: tuple[str, ...] = ()
    options: frozenset[str] = frozenset()  # options that take the next word as their value
    # options whose value can only be attached (`perl -Mstrict`, `perl -pi.bak`): the rest of the word is
    # theirs (a letter there is no option), the next word is not
    attached_options: frozenset[str] = frozenset()
    files: int | None = None  # operands from this index on are files; None: operands are not files
    command_options: frozenset[str] = frozenset()  # options whose value is a command line it runs
    # options after which the rest of the words are the command it runs (`nix develop -c cabal build`)
    command_after: frozenset[str] = frozenset()
    code_options: frozenset[str] = frozenset()  # options whose value is code in its own language (SQL...)
    # an application's console that runs code in the application, with its database and settings: (its
    # sub-command, the interpreter line the code is read as, the options whose value is the code; none: the
    # operand after the sub-command is); fed on its input, it runs that (`manage.py shell -c CODE`)
    console: tuple[str, tuple[str, ...], tuple[str, ...]] | None = None
    # an application's database shell (`manage.py dbshell`): the SQL it is fed runs as this client's would
    db_console: tuple[str, str] | None = None  # (sub-command, the SQL client)
    family: bool = False  # also answers for `NAME3.11`, `NAME18`, `NAME.ext4`
    runs_after: tuple[str, ...] = ()  # sub-commands after which the rest is a command (`poetry run X`)
    # a runner's own sub-commands, when any other first operand is a script or a program of the project it
    # runs (`pnpm prisma migrate reset` is `pnpm exec prisma migrate reset`); empty: only `runs_after` runs
    own_commands: frozenset[str] = frozenset()
    # sub-commands that take a package of the workspace and then the program's own arguments, for that package
    # (`yarn workspace @acme/db prisma migrate reset` is `yarn prisma migrate reset` run there)
    scoped_by: tuple[str, ...] = ()
    skip_operands: int = 0  # operands before the command it runs (`direnv exec DIR cmd`, `timeout 5 cmd`)
    shell: bool = False  # a wrapper given no command starts the user's shell (`chroot /`, `setarch x86_64`)
    # options whose value is a file it writes (`sort -o F`, `gcc -o F`, `openssl enc -out F`), and the index
    # of the operand that is one (`xxd IN OUT`)
    output_options: frozenset[str] = frozenset()
    output_operand: int | None = None
    destroys_all: str = ""  # regex over the words after the name: destroys an environment or a store
    destroys_one: str = ""  # regex over the words after the name: deletes a resource
    # regex over the words after the name: deletes the machine's own state (a compose project's volumes), a
    # developer's copy on this machine, a resource on another one (a line run over ssh)
    destroys_there: str = ""
    # regex over the words after the name: the invocation is run by another machine's engine (`docker
    # --context prod`, `-H ssh://host`), where `destroys_there` deletes that machine's state
    elsewhere: str = ""
    # sub-commands that send what they are given to the place their last operand names, and how that operand
    # names it: "image" (a container image reference: its registry) or "remote" (rclone's `NAME:path`)
    pushes: tuple[str, ...] = ()
    push_target: str = ""
    disables: str = ""  # regex over the words after the name: switches a security control off
    # regex over the words after the name: widens who may act or read there (a cluster-admin binding, an
    # owner role, an admin collaborator, a private repository made public)
    grants: str = ""
    # regex over the words after the name: points the tool, for good, at another package source or at a
    # program it will run later (`npm config set registry URL`, `npm config set script-shell X`; git's
    # command-valued keys are `limen.normalize.shell`'s, which reads what each would run)
    reroutes: str = ""
    # regex over the words after the name: the invocation changes the program's own settings, and the files
    # that hold them (`claude config set ...`, `claude mcp add ...`: an agent's hooks and servers live there)
    changes_settings: str = ""
    settings_files: tuple[str, ...] = ()
    # regex over the words after the name: the invocations of a `TUNNEL` program that open a tunnel (empty:
    # every invocation does; `ngrok config ...` does not)
    exposes: str = ""
    # an object-store CLI: the words that name its storage commands (`s3` in `aws s3 cp`, "" for `gsutil cp`),
    # after which a listing (`ls`) or a copy whose last operand is a local path only reads from the store
    store_service: str | None = None
    # regex over the words after the name: the invocations of a `LOADS_CODE` program that load native code
    # from a file they name (a PKCS#11 provider, an engine), code no analysis here reads
    loads_library: str = ""
    # regex over the words after the name: the invocation deletes the files it is given once it has them
    # (`tar --remove-files`, `zip -m`, `7z -sdel`, `rsync --remove-source-files`): judged as `rm -rf` of them
    removes_operands: str = ""
    # a package installer's registry ("pypi", "npm": `limen.facts.packages`), the sub-commands after which
    # every operand is a package it installs (`pip install A B`), and those after which the first operand is
    # a package it fetches and runs ("" for the program itself: `npx cowsay hi`, `uvx ruff check`)
    registry: str = ""
    # options whose value is a package installed from a registry, with that registry (`databricks libraries
    # install --pypi-package NAME`): judged as the registry's own installer would judge the name
    package_options: tuple[tuple[str, str], ...] = ()
    installs: tuple[str, ...] = ()
    runs_package: tuple[str, ...] = ()
    # regex over the words after the name: the invocation installs code from a repository or an address to
    # run later as part of the program (`gh extension install o/r`, `helm plugin install URL`)
    fetches_code: str = ""
    # regex over the words after the name: the invocation changes the system the program controls elsewhere
    # (a deploy, an apply, a merge, a release): what content carrying injected instructions must not steer
    changes: str = ""
    # regex over the words after the name: the invocation makes something run later with no one asking: a
    # job on a schedule (`glab schedule create`, `kubectl create cronjob`, `schtasks /create`), an autostart
    # (a registry Run key, a service), a library the program loads from then on (`netsh add helper`)
    schedules: str = ""
    # a platform's commands that run a command line on its machines (`heroku run CMD`, `fly ssh console -C
    # CMD`): the sub-commands after which the operands are that line, and the options whose value is it
    # ("" for a program whose operands, after `skip_operands`, are the line: `pdsh -w HOSTS CMD`); operands
    # between the sub-command and the line (`knife ssh QUERY CMD`: the search query)
    remote_runs: tuple[str, ...] = ()
    remote_options: frozenset[str] = frozenset()
    remote_skip: int = 0
    # regex over the words after the name: the invocation works on the local emulator's copy of a service
    # (`wrangler d1 execute DB --local`), a developer's own data, not the service's
    local_copy: str = ""
    # what the program changes is production unless the line names another environment (`wrangler deploy`
    # deploys the configuration's top level, which is production; `--env staging` is not)
    default_production: bool = False
    # regex over the words after the name: the invocation changes what the public reaches, whatever
    # environment the line names (a DNS record, a domain's owner or name servers, an alias of a live name):
    # production by nature
    live: str = ""
    # options whose value is a file of the build's own code it runs now (`gradle --init-script F`, `-b F`):
    # judged as that build file is when written
    script_options: frozenset[str] = frozenset()
    # sub-commands that fetch and run a project initializer named by their operand (`npm create vite` runs
    # the package `create-vite`: `facts.packages.initializer_package`)
    initializers: tuple[str, ...] = ()
    # a script host's script files, by how they are named (`.ps1`): given one, with no code option before
    # it and nothing on its input, it runs that file as `bash FILE` runs a shell script: the project's own
    # program unless the line wrote or fetched it (`code_options`: the options whose value is code instead;
    # any prefix of one counts, as PowerShell takes `-enc` for `-EncodedCommand`)
    script_suffixes: tuple[str, ...] = ()
    # regex over the words after the name: the invocations of a many-purpose program that only read and
    # print (`git status`, `git log`), as an `INSPECTS` program always does
    inspects: str = ""
    # regex over the words after the name: the invocation checks a signature, a checksum or a provenance
    # (`gpg --verify`, `sha256sum -c`, `cosign verify`): its failure is what stops tampered code
    verifies: str = ""
    # a client that sends what it is given to the host an option names (`storescu -c AET@HOST:PORT FILES`),
    # else the host its operand at `host_operand` names (`storescu HOST PORT FILES`); its other operands
    # from `files` on are the files it sends
    host_options: frozenset[str] = frozenset()
    host_operand: int | None = None
    # options whose value puts a host path inside a container (`docker run -v SRC:DST`, `apptainer run
    # --bind SRC:DST`): what the container's code may then read and change
    mounts: frozenset[str] = frozenset()
    # sub-commands after which the operands are a setting's path and then its value (`bin/magento config:set
    # admin/captcha/enable 0`, `wp option update KEY VALUE`): read as `key=value` words are (`changes`)
    setting_pairs: tuple[str, ...] = ()
    # host globs of the platform's own deployments (`*.vercel.app`): such an address among its words names
    # the deployment it acts on through its own API, it sends nothing there (`vercel promote URL`)
    deploys_to: tuple[str, ...] = ()
    # sub-commands whose operands are text the program works on, not addresses it reaches (`wp search-replace
    # https://acme.com https://acme.test`)
    text_verbs: tuple[str, ...] = ()


# Branches others build from: deleting or rewriting one loses what every other branch is cut from
PROTECTED_BRANCHES = re.compile(
    r"^(main|master|trunk|develop|dev|release.*|prod|production|stable|gh-pages)$"
)
# A variable that names the environment a program works in (`RAILS_ENV`, `MIX_ENV`, `ASPNETCORE_ENVIRONMENT`,
# `STAGE`, `AWS_PROFILE`, `DJANGO_SETTINGS_MODULE`), and a name that says production among the words of an
# invocation (`--env=production`, `--context prod-eu`, `values-prod.yaml`, `-chdir=infra/prd`).
ENVIRONMENT_VARIABLE = re.compile(r"(?:^|_)(?:ENV|ENVIRONMENT|STAGE|PROFILE|CONTEXT|SETTINGS_MODULE)$")
# (`mainnet`: a public blockchain's main network, where a transaction moves real value and is never undone)
PRODUCTION = re.compile(r"(?<![A-Za-z0-9])(?:prod|production|prd|mainnet)(?![A-Za-z0-9])", re.IGNORECASE)
# The names teams give the branch production runs from (a database platform's main branch holds its rows;
# `PROTECTED_BRANCHES` are git's, the branches others build from)
MAIN_BRANCHES = r"(?:main|master|prod|production|primary)"


# Slurm's options that take the next word (`-p debug`, `--account ocean-mix`): the launchers' command follows
_SLURM_OPTIONS = (
    *("-A", "-p", "-N", "-n", "-c", "-t", "-J", "-o", "-e", "-w", "-x", "-C", "-D", "-d", "-q", "-G"),
    *("-a", "-i"),
    *("--account", "--partition", "--nodes", "--ntasks", "--cpus-per-task", "--time", "--job-name"),
    *("--output", "--error", "--nodelist", "--exclude", "--constraint", "--chdir", "--dependency", "--qos"),
    *("--gres", "--mem", "--mem-per-cpu", "--reservation", "--export", "--mpi", "--ntasks-per-node"),
    *("--gpus", "--gpus-per-node", "--cpu-bind", "--array", "--input", "--licenses", "--begin"),
)

# The services of a cloud that audit, detect or fence (a cloud CLI's sub-command words), and what turns one
# off or sends its record elsewhere: `gcloud logging settings update --disable-default-sink`, `gcloud scc
# muteconfigs create`, `az security ... --auto-provision off`, `gcloud logging sinks update NAME DEST`
SECURITY_SERVICES = frozenset(
    {
        *("logging", "logs", "audit", "auditing", "audit-logs", "cloudtrail", "guardduty", "securityhub"),
        *("scc", "security", "defender", "sentinel", "waf", "wafv2", "firewall", "firewall-rules"),
        *("network-firewall", "perimeters", "access-context-manager", "org-policies", "resource-manager"),
        *("configservice", "inspector2", "macie2", "detective", "shield", "armor", "security-policies"),
        *("monitor", "diagnostic-settings"),
    }
)
SECURITY_OFF = re.compile(
    r"(?:^|\s)(?:--disable[\w-]*|--no-enable[\w-]*|--remove-restricted-services[=\s]\S+|disable[\w-]*"
    r"|stop[\w-]*|suspend[\w-]*|muteconfigs|mute[\w-]*|sinks?\s+update)(?:[=\s]|$)"
    # findings hidden as they come (`create-filter --action ARCHIVE`) or by the batch (`Status=SUPPRESSED`)
    r"|(?i:(?:^|\s)--action[=\s]+archive|status=suppressed)(?:[\s,]|$)"
    r"|(?:^|\s)--[\w-]*(?:enable|provision|logging|audit)[\w-]*[=\s]+(?:off|false|disabled?|none)(?:\s|$)"
    # a log level set to nothing (`--default-log-level DISABLED`, `logLevel=DISABLED` in a payload)
    r"|(?i:(?:^|[\s,{\"'])[\w-]*log-?level[\"']?\s*[=:\s]\s*[\"']?(?:off|disabled?|none)(?![\w-]))"
)

# A federated identity's trust any repository or subject may meet: GitHub's OIDC subject `repo:*`, a
# `repository = "*"` claim, a `sub` of `*` (whoever runs a workflow anywhere may then take the role)
OPEN_FEDERATION = re.compile(
    r"""(?i)["']?(?:token\.actions\.githubusercontent\.com:sub|sub|repository|repository_owner|project_path"""
    r"""|namespace_path|job_workflow_ref)["']?\s*(?:[:=]|=>)\s*\[?\s*["'](?:repo:)?\*(?=["':/])"""
    # Terraform's policy document condition: the claim named, then the values it is tested against
    r"""|variable\s*=\s*"token\.actions\.githubusercontent\.com:sub"[^}]{0,200}?values\s*=\s*\[[^\]]*"repo:\*"""
    r"""|values\s*=\s*\[[^\]]*"repo:\*[^}]{0,200}?variable\s*=\s*"token\.actions\.githubusercontent\.com:sub["]"""
)

# Invocations that publish a release to the people who use the project (an app store's users, external
# testers, a release tag CI builds and ships from): production by nature, whatever else the line names
RELEASES: dict[str, str] = {
    # (a signing action's `appstore` is the kind of profile it syncs: `fastlane match appstore --readonly`)
    "fastlane": r"^(?!\s*(?:match|sigh|cert|gym|build_app|scan|run_tests|snapshot|pem|produce)(?:\s|$)).*?"
    r"(?:(?:^|\s)(?:deliver|upload_to_app_store|upload_to_play_store|supply|release|promote\w*"
    r"|submit\w*|production|appstore|playstore)(?:\s|$)"
    r"|(?:^|\s)pilot\s+distribute(?:\s|$).*--distribute_external[=\s]+true)",
    # Expo: a build sent to the stores, an over-the-air update (or a republished, rolled-back one) or a
    # channel repointed, for production: every installed app takes it at its next start
    "eas": r"(?:^|\s)submit(?:\s|$)"
    r"|(?:^|\s)(?:update|channel)(?::[\w-]+)?(?:\s|$).*(?<![\w-])(?:prod|production)(?![\w-])",
    # (and a published release's files replaced: `gh release upload v1.8.2 bin --clobber`; files added to
    # one are the project's own release work)
    "gh": r"(?:^|\s)release\s+create(?:\s|$)|(?:^|\s)release\s+upload\s.*--clobber(?:\s|$)",
    # an editor extension published to its marketplace, an over-the-air update released to installed apps
    "vsce": r"(?:^|\s)publish(?:\s|$)",
    "ovsx": r"(?:^|\s)publish(?:\s|$)",
    "appcenter": r"(?:^|\s)codepush\s+release(?:-react|-cordova|-electron)?(?:\s|$)",
    "glab": r"(?:^|\s)release\s+create(?:\s|$)",
    # a game's build pushed to a channel its players install from (itch.io's butler; a beta, alpha or
    # internal channel is the testers'), a Lua rock uploaded to LuaRocks, an image pushed to a container
    # library
    "butler": r"(?:^|\s)push\s+\S+\s+\S+:(?![\w-]*(?:beta|alpha|internal|canary|nightly|test|dev))",
    "luarocks": r"(?:^|\s)upload(?:\s|$)",
    "apptainer": r"(?:^|\s)push(?:\s|$)",
    "singularity": r"(?:^|\s)push(?:\s|$)",
    "git": r"(?:^|\s)push(?:\s|$).*(?:(?:^|\s)--(?:tags|follow-tags)(?:\s|$)|refs/tags/"
    r"|\s[+:]?v?\d+\.\d+(?:\.\d+)*(?:\s|$))",
}
# Programs that run a file of the folder they are pointed at (the current one by default), with the
# sub-commands that run it now or approve it to run on every later entry: direnv's `.envrc`
FOLDER_SCRIPTS: dict[str, tuple[str, frozenset[str]]] = {
    "direnv": (".envrc", frozenset({"allow", "permit", "grant", "exec", "reload"})),
}
# A task of the project's build or task runner named for a release (`make release`, `npm run deploy`,
# `bitrise run release`, `fastlane android promote`); one naming a test or staging target is not
# (`release` alone names a build configuration as often as a publication: `cmake --preset release`)
# (Gradle's camel case too, `publishToSonatype`; not `publishToMavenLocal`)
RELEASE_TASK = re.compile(
    r"(?:(?:^|[:_+/.-])(?i:deploy|publish|promote|ship|rollout|submit)|(?<=[a-z])(?:Deploy|Publish|Promote|Ship))"
    r"(?:$|[:_+-]|(?=[A-Z]))(?!.*(?:Local|Artifacts|M2))"
)
NOT_PRODUCTION = re.compile(
    r"(?i)(?<![A-Za-z0-9])(?:dev|develop|development|staging|stage|stg|uat|test|tests|testing|qa|local|preview|sandbox"
    # (`.internal` ends a private network's host names: no stage)
    r"|dry-?run|snapshot|(?<!\.)internal)(?![A-Za-z0-9])"
)

# The Kubernetes contexts of clusters that run on this machine (kind's `kind-NAME`, k3d's `k3d-NAME`,
# minikube's, Docker Desktop's, Rancher Desktop's, OrbStack's, colima's): what is deleted there is the
# developer's own, rebuilt in a minute
LOCAL_CLUSTER_CONTEXT = re.compile(
    r"(?i)(?:kind|k3d)-[\w.-]+|minikube|docker-desktop|docker-for-desktop|rancher-desktop|orbstack|colima(?:-[\w.-]+)?"
)

# What only reads a store (a listing, an object printed here, a bucket's or object's settings described),
# and the nouns such a verb may follow (`gcloud storage buckets describe`, `gsutil iam get`)
_STORE_LISTINGS = frozenset({"ls", "du", "stat", "cat", "describe", "list", "get"})
_STORE_NOUNS = frozenset(
    {"buckets", "objects", "iam", "acl", "versioning", "lifecycle", "labels", "retention", "folders", "hmac"}
)
_STORE_COPIES = frozenset({"cp", "sync", "mv", "rsync"})


def names_deployment(entry: Program, word: str) -> bool:
    """`word` is an address of one of the platform's own deployments (`Program.deploys_to`)."""
    if not entry.deploys_to or "://" not in word:
        return False
    from limen.facts.hosts import host_in

    host = word.split("://", 1)[1].split("/", 1)[0].split(":", 1)[0].lower()
    return host_in(host, entry.deploys_to)


@dataclass(frozen=True, slots=True)
class CloudSdk:
    """A cloud's or a cluster's client library: a call of it does what its command-line tool does with the
    same words (`boto3.client('s3').delete_bucket(...)` is `aws s3api delete-bucket`), so the CLI's entry
    (`destroys_all`, `destroys_one`) judges both."""

    program: str  # the CLI whose entry judges the call
    joiner: str  # how a method's words make the CLI's verb ("-": delete_bucket -> delete-bucket)


# By module (Python's dotted name, or an npm package or scope)
_AWS, _GCLOUD = CloudSdk("aws", "-"), CloudSdk("gcloud", " ")
_AZ, _KUBECTL = CloudSdk("az", " "), CloudSdk("kubectl", " ")
CLOUD_SDKS: dict[str, CloudSdk] = {
    **dict.fromkeys(("boto3", "botocore", "aioboto3", "aiobotocore", "aws-sdk", "@aws-sdk"), _AWS),
    **dict.fromkeys(("google.cloud", "googleapiclient", "@google-cloud", "googleapis"), _GCLOUD),
    **dict.fromkeys(("azure", "@azure"), _AZ),
    **dict.fromkeys(("kubernetes", "@kubernetes/client-node"), _KUBECTL),
    # Firebase's admin SDK: `admin.auth().deleteUsers(uids)` is the `delete users` no CLI spells
    **dict.fromkeys(("firebase-admin", "firebase_admin"), CloudSdk("firebase", " ")),
    # Supabase's client with the service key: `s.storage.deleteBucket(b)`, `s.auth.admin.deleteUser(id)`
    **dict.fromkeys(("@supabase/supabase-js", "supabase"), CloudSdk("supabase", " ")),
}
# The first word of a client method (snake or camel case) that destroys what it names; Azure's long-running
# calls start with `begin_` (`begin_delete`)
DESTRUCTION_VERBS = frozenset(
    {"delete", "destroy", "terminate", "purge", "drop", "remove", "deregister", "empty", "wipe", "flush"}
)
_VERB_MODIFIERS = frozenset(
    {"recursive", "recursively", "bulk", "batch", "force", "hard", "permanent", "async"}
)
_CAMEL_WORD = re.compile(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])")
# links of a call chain that name no resource (`bucket.objects.all().delete()`: the objects are deleted)
_CHAIN_FILLER = frozenset({"all", "filter", "each", "limit", "page_size", "client", "resource", "send"})


@functools.lru_cache(maxsize=1024)
def cloud_sdk(module: str) -> CloudSdk | None:
    """The SDK a qualified name (`boto3.client.delete_bucket`) or a package (`@aws-sdk/client-s3`) is of."""
    if module.startswith("@"):  # `@supabase/supabase-js.createClient.storage`: the package, then its names
        scope, _, rest = module.partition("/")
        package = f"{scope}/{rest.split('/', 1)[0].split('.', 1)[0]}"
        return CLOUD_SDKS.get(package) or CLOUD_SDKS.get(scope)
    parts = module.split(".", 2)
    return CLOUD_SDKS.get(".".join(parts[:2])) or CLOUD_SDKS.get(parts[0])


def sdk_destruction(sdk: CloudSdk, chain: list[str]) -> tuple[str, ...]:
    """The CLI words (after the program's name) of an SDK call that destroys something, from its call chain
    (`["resource", "Bucket", "objects", "all", "delete"]` -> `("delete-objects",)` for aws); () for any
    other call. A bare `delete()` takes its resource from the chain."""
    if not chain:
        return ()
    method = chain[-1].removeprefix("begin_").removesuffix("Command")
    words = [w.lower() for part in method.split("_") for w in _CAMEL_WORD.findall(part)]
    while len(words) > 1 and words[0] in _VERB_MODIFIERS:  # `recursive_delete`, `bulkDelete`, `forceDelete`
        words = words[1:]
    if not words or words[0] not in DESTRUCTION_VERBS:
        return ()
    if len(words) == 1:
        nouns = [w for w in chain[:-1] if w.lower() not in _CHAIN_FILLER and w.isidentifier()]
        if nouns:
            words.append(nouns[-1].lower())
    # `s3.buckets.all()` iterated or `bucket.objects.all().delete()`: every one of them, as the CLI's `--all`
    every = ("--all",) if "all" in chain[:-1] else ()
    return ((sdk.joiner.join(words),) if sdk.joiner != " " else tuple(words)) + every


# An AWS client's methods are the API's operations, which the CLI spells the same way: `boto3.client(
# "guardduty").update_detector(DetectorId=d, Enable=False)` and `new UpdateDetectorCommand({...})` are `aws
# guardduty update-detector --detector-id d --no-enable`. Where the CLI names a service differently:
_AWS_CLI_SERVICE = {"s3": "s3api", "config": "configservice", "cloudwatchlogs": "logs"}
_AWS_SERVICE = re.compile(r"[a-z][a-z0-9-]{1,40}")
# What a call only reads (its result is the program's to use, which the CLI would print instead), and the
# SDK's own helpers that are no operation of the API (transfers, paginators, waiters)
_SDK_READS = frozenset(
    {"get", "list", "describe", "head", "scan", "query", "search", "lookup", "select", "estimate", "validate"}
    | {"preview", "test", "simulate", "can", "wait", "filter", "check", "generate", "download", "verify"}
)
_SDK_HELPERS = frozenset(
    {"upload_file", "upload_fileobj", "download_file", "download_fileobj", "copy", "close", "send"}
)


def aws_service(service: str) -> str:
    """The CLI's name of the service an AWS client is made for (`boto3.client("s3")`: `s3api`); "" for a name
    no service has."""
    service = service.strip().lower()
    return _AWS_CLI_SERVICE.get(service, service) if _AWS_SERVICE.fullmatch(service) else ""


def aws_operation(name: str) -> tuple[str, str]:
    """(the CLI's service, the method) of an AWS client's call by its qualified name, however the SDK spells
    it: boto3's `boto3.client.guardduty.update_detector` (the analyser names a client by its service), the
    JavaScript SDK's `@aws-sdk/client-guardduty.UpdateDetectorCommand` and `aws-sdk.GuardDuty.updateDetector`;
    ("", "") for any other name."""
    parts = name.split(".")
    if len(parts) >= 4 and parts[-3] == "client" and parts[0] in ("boto3", "aioboto3", "botocore"):
        return aws_service(parts[-2]), parts[-1]
    if len(parts) == 2 and parts[0].startswith("@aws-sdk/client-") and parts[1].endswith("Command"):
        return aws_service(parts[0].removeprefix("@aws-sdk/client-")), parts[1]
    if len(parts) == 3 and parts[0] == "aws-sdk" and parts[1][:1].isupper():
        return aws_service(parts[1]), parts[2]
    return "", ""


def sdk_operation(name: str, options: dict[str, str | bool]) -> tuple[str, ...]:
    """The command line an AWS client's call named `name` is (`aws guardduty update-detector --detector-id d
    --no-enable`; see `aws_operation`), for the CLI's entry to judge: its options from the call's parameters
    (a flag for a boolean, JSON for a structure, as the caller renders them). () for another SDK, a call that
    only reads, or a helper of the SDK's own."""
    service, method = aws_operation(name)
    if not service or method in _SDK_HELPERS:
        return ()
    words = [
        w.lower() for part in method.removesuffix("Command").split("_") for w in _CAMEL_WORD.findall(part)
    ]
    if not words or words[0] in _SDK_READS or words[:2] == ["batch", "get"]:
        return ()
    argv = ["aws", service, "-".join(words)]
    for key, value in options.items():
        option = "-".join(w.lower() for w in _CAMEL_WORD.findall(key))
        if value is True or value is False:
            argv.append(f"--{option}" if value else f"--no-{option}")
        elif option:
            argv += [f"--{option}", value]
    return tuple(argv)


@dataclass(frozen=True, slots=True)
class RemoteSession:
    """A library that logs in to another machine or a network device and runs commands there: its calls are
    judged as `ssh HOST COMMAND` is (the host a destination, the command read as the remote line it is), so
    `netmiko.ConnectHandler(host=h).send_config_set([...])` and `ssh h '...'` get one verdict. Any call of the
    library handed a host (a class, `connect(host)`, a driver) names the machine the later commands reach."""

    runs: frozenset[str]  # methods that run their argument (a line, a list of lines, a file) over there


# By module root (a package's Python name)
REMOTE_SESSIONS: dict[str, RemoteSession] = {
    "paramiko": RemoteSession(frozenset({"exec_command"})),
    "fabric": RemoteSession(frozenset({"run", "sudo"})),
    "asyncssh": RemoteSession(frozenset({"run", "create_process"})),
    "spur": RemoteSession(frozenset({"run", "spawn"})),
    "pssh": RemoteSession(frozenset({"run_command"})),  # parallel-ssh
    "winrm": RemoteSession(frozenset({"run_cmd", "run_ps"})),  # pywinrm
    "pypsrp": RemoteSession(frozenset({"execute_cmd", "execute_ps"})),
    # network devices: a configuration or command set pushed to a router or a switch
    "netmiko": RemoteSession(
        frozenset(
            {"send_command", "send_command_timing", "send_config_set", "send_config_from_file"}
            | {"send_multiline", "send_command_expect"}
        )
    ),
    "scrapli": RemoteSession(frozenset({"send_command", "send_commands", "send_config", "send_configs"})),
    "jnpr": RemoteSession(frozenset({"load", "cli"})),  # Junos PyEZ
    "napalm": RemoteSession(frozenset({"load_merge_candidate", "load_replace_candidate", "cli"})),
    "ncclient": RemoteSession(frozenset({"edit_config", "dispatch"})),
    "nornir": RemoteSession(frozenset({"run"})),  # on the hosts of its inventory
}


def remote_session(name: str) -> RemoteSession | None:
    """The remote-session library a qualified name (`netmiko.ConnectHandler.send_config_set`) is of."""
    return REMOTE_SESSIONS.get(name.split(".", 1)[0])


def operands(words: Sequence[str], valued: frozenset[str]) -> list[str]:
    """A command's operands among `words` (after its name): no option, and no value of an option in `valued`
    (`kubectl -n prod run ...` is `run ...`); `--` ends the options."""
    out: list[str] = []
    skip = False
    ended = False
    for word in words:
        if skip:
            skip = False
            continue
        if ended or not word.startswith("-") or word == "-":
            out.append(word)
        elif word == "--":
            ended = True
        elif word in valued:
            skip = True
    return out


def reads_from_store(entry: Program, words: tuple[str, ...]) -> bool:
    """Whether an object-store CLI's invocation (`words` after its name) only brings data here: a listing,
    or a copy whose last operand is a local path (`aws s3 cp s3://b/k .`), never one into a store URL."""
    if entry.store_service is None:
        return False
    # (`-` is an operand, standard input: `aws s3 cp - s3://b/k` uploads what the pipeline gives it; an
    # option's value is none: `--profile personal` names no local path)
    operands = [
        w
        for i, w in enumerate(words)
        if (w == "-" or not w.startswith("-")) and not (i and words[i - 1] in entry.options)
    ]
    if entry.store_service:
        if entry.store_service not in operands:
            return False
        operands = operands[operands.index(entry.store_service) + 1 :]
    if not operands:
        return False
    verb, rest = operands[0], operands[1:]
    if verb in _STORE_LISTINGS or (verb in _STORE_NOUNS and rest[:1] and rest[0] in _STORE_LISTINGS):
        return True
    # the source is the store, the destination (the second operand) a local path; an option's value after
    # the operands is neither (`--acl public-read`, `--source-region eu-west-1`)
    return verb in _STORE_COPIES and len(rest) >= 2 and "://" in rest[0] and "://" not in rest[1]


# A test or development database by its conventional name (`shop_test`, `app_dev`): recreated at will
SCRATCH_DATABASE = (
    r"(?:[\w-]*(?:_test|_dev|-test|-dev|_development|_testing|_local|-local|_scratch|-scratch|_sandbox)"
    r"(?:[_-](?:tmp|temp|\d+))?"  # (with a run's suffix: `payments_test_tmp`, `shop_test_2`)
    r"|(?:test|testing|dev|scratch)_[\w-]+)"  # (or a prefix: `test_carebridge`)
)
# A resource (a container volume, a database file, a namespace, a prefix) named as a test's, a development
# copy's or a preview's (`shop_test_pgdata`, `tests/fixtures/test.db`, `tmp-cache`, `preview-pr-398`):
# resetting it is the test suite's or the pipeline's own work
# (a pull request's preview, `preview-pr-398`, `ci-artifacts/pr-398/`: what lives in its namespace is its own)
_PREVIEW_WORDS = r"previews?|pr-?\d+"
PREVIEW = rf"(?i)(?:^|[/_.-])(?:{_PREVIEW_WORDS})(?:$|[/_.-])"
SCRATCH_RESOURCE = (
    r"(?i)(?:^|[/_.-])(?:tests?|testing|dev|development|tmp|temp|scratch|fixtures?|sandbox|ephemeral"
    rf"|{_PREVIEW_WORDS})(?:$|[/_.-])"
)


# `docker run`'s options that take a value: the image is the first word after them
_DOCKER_RUN_OPTS = (
    *("-p", "--publish", "-v", "--volume", "-e", "--env", "--env-file", "--name", "-w", "--workdir"),
    *("--network", "--net", "--entrypoint", "-u", "--user", "--mount", "-l", "--label", "--add-host"),
    *("--cpus", "-m", "--memory", "--restart", "--platform", "--pull", "-h", "--hostname", "--log-driver"),
    *("--log-opt", "--device", "--cap-add", "--cap-drop", "--security-opt", "--ulimit", "--shm-size"),
    *("--tmpfs", "--dns", "--gpus", "--ipc", "--pid", "--uts", "--cidfile", "--expose", "--health-cmd"),
    *("-a", "--attach", "--link", "--runtime", "--stop-signal", "--stop-timeout", "--volumes-from"),
)


# The registry keys of Windows' protections: Defender and its policies, the firewall, SmartScreen, account
# control (`Policies\System`), credential protection (Lsa, Device Guard), script logging and the event logs
_WINDOWS_PROTECTIONS = (
    r"(?:Windows Defender|Microsoft Antimalware|WindowsFirewall|FirewallPolicy|SmartScreen"
    r"|Policies\\?System\b|\\Lsa\b|DeviceGuard|Windows Script Host|ScriptBlockLogging|ModuleLogging|EventLog)"
)


# Programs that write what reaches them on their input into the files they name, and read none of those
STDIN_WRITERS = frozenset({"tee", "sponge"})
# What loads a file of shell code or variables into the running shell, printing none of it: the shells' own,
# and direnv's library in an `.envrc` (a dotenv file's variables, another `.envrc`)
SHELL_LOADERS = (
    "source",
    ".",
    "dotenv",
    "dotenv_if_exists",
    "source_env",
    "source_env_if_exists",
    "source_up",
)


def _p(
    name: str,
    *roles: Role,
    aliases: tuple[str, ...] = (),
    options: tuple[str, ...] = (),
    attached_options: tuple[str, ...] = (),
    files: int | None = None,
    command_options: tuple[str, ...] = (),
    command_after: tuple[str, ...] = (),
    code_options: tuple[str, ...] = (),
    console: tuple[str, tuple[str, ...], tuple[str, ...]] | None = None,
    db_console: tuple[str, str] | None = None,
    family: bool = False,
    runs_after: tuple[str, ...] = (),
    own_commands: tuple[str, ...] = (),
    scoped_by: tuple[str, ...] = (),
    skip_operands: int = 0,
    shell: bool = False,
    output_options: tuple[str, ...] = (),
    output_operand: int | None = None,
    destroys_all: str = "",
    destroys_one: str = "",
    destroys_there: str = "",
    elsewhere: str = "",
    pushes: tuple[str, ...] = (),
    push_target: str = "",
    disables: str = "",
    grants: str = "",
    reroutes: str = "",
    changes_settings: str = "",
    settings_files: tuple[str, ...] = (),
    exposes: str = "",
    store_service: str | None = None,
    loads_library: str = "",
    removes_operands: str = "",
    registry: str = "",
    package_options: tuple[tuple[str, str], ...] = (),
    installs: tuple[str, ...] = (),
    runs_package: tuple[str, ...] = (),
    fetches_code: str = "",
    changes: str = "",
    schedules: str = "",
    remote_runs: tuple[str, ...] = (),
    remote_options: tuple[str, ...] = (),
    remote_skip: int = 0,
    local_copy: str = "",
    default_production: bool = False,
    live: str = "",
    script_options: tuple[str, ...] = (),
    initializers: tuple[str, ...] = (),
    script_suffixes: tuple[str, ...] = (),
    inspects: str = "",
    verifies: str = "",
    host_options: tuple[str, ...] = (),
    host_operand: int | None = None,
    mounts: tuple[str, ...] = (),
    setting_pairs: tuple[str, ...] = (),
    deploys_to: tuple[str, ...] = (),
    text_verbs: tuple[str, ...] = (),
) -> Program:
    return Program(
        name,
        frozenset(roles),
        aliases=aliases,
        options=frozenset(options),
        attached_options=frozenset(attached_options),
        files=files,
        command_options=frozenset(command_options),
        command_after=frozenset(command_after),
        code_options=frozenset(code_options),
        console=console,
        db_console=db_console,
        family=family,
        runs_after=runs_after,
        own_commands=frozenset(own_commands),
        scoped_by=scoped_by,
        skip_operands=skip_operands,
        shell=shell,
        output_options=frozenset(output_options),
        output_operand=output_operand,
        destroys_all=destroys_all,
        destroys_one=destroys_one,
        destroys_there=destroys_there,
        elsewhere=elsewhere,
        pushes=pushes,
        push_target=push_target,
        disables=disables,
        grants=grants,
        reroutes=reroutes,
        changes_settings=changes_settings,
        settings_files=settings_files,
        exposes=exposes,
        store_service=store_service,
        loads_library=loads_library,
        removes_operands=removes_operands,
        registry=registry,
        package_options=package_options,
        installs=installs,
        runs_package=runs_package,
        fetches_code=fetches_code,
        changes=changes,
        schedules=schedules,
        remote_runs=remote_runs,
        remote_options=frozenset(remote_options),
        remote_skip=remote_skip,
        local_copy=local_copy,
        default_production=default_production,
        live=live,
        script_options=frozenset(script_options),
        initializers=initializers,
        script_suffixes=script_suffixes,
        inspects=inspects,
        verifies=verifies,
        host_options=frozenset(host_options),
        host_operand=host_operand,
        mounts=frozenset(mounts),
        setting_pairs=setting_pairs,
        deploys_to=deploys_to,
        text_verbs=text_verbs,
    )


R = Role
_AWSCURL_OPTS = ("--service", "--region", "--profile", "-X", "--request", "-d", "--data", "-H", "--header")
# Gradle's options that name a script of build code it runs: an init script, a build or a settings file
_GRADLE_SCRIPT_OPTIONS = ("-I", "--init-script", "-b", "--build-file", "-c", "--settings-file")

# git's sub-commands that only read and print the repository (a listing of branches, tags, remotes or stashes,
# not their changing), with none of the options that write a file, run a program or read outside it
_GIT_INSPECTS = (
    r"^(?:(?:status|log|show|diff|blame|shortlog|describe|rev-parse|ls-files|ls-tree|show-ref|merge-base"
    r"|rev-list|cat-file)(?:\s|$)(?!.*(?:--output|--ext-diff|--textconv|--no-index|--open-files-in-pager"
    r"|(?<!\S)-O))"
    r"|branch(?:\s+(?:-a|-r|-v|-vv|--list|--all|--show-current|--remotes))*$|remote(?:\s+-v)?$"
    r"|tag(?:\s+(?:-l|--list))?$|stash\s+list$)"
)

# git configuration keys whose value is a command git runs (`core.pager`, `alias.x = !cmd`, a filter's
# `clean`), and keys that make git run hooks or read configuration from a place they name. Read by the shell
# normaliser (`git -c KEY=V`, `git config KEY V`) and by the rule on written files (`.git/config`,
# `~/.gitconfig`).
GIT_COMMAND_KEYS = re.compile(
    r"^(?:core\.(?:pager|editor|sshcommand|fsmonitor|askpass|gitproxy)|sequence\.editor|diff\.external|"
    r"gpg\.(?:[\w-]+\.)?program|pager\.[\w.-]+|filter\.[\w.-]+\.(?:clean|smudge|process)|"
    r"diff\.[\w.-]+\.(?:textconv|command)|merge\.[\w.-]+\.driver|uploadpack\.packobjectshook|"
    r"credential(?:\.[^=]+)?\.helper|alias\.[\w.-]+|instaweb\.httpd|web\.browser|man\.[\w.-]+\.cmd|"
    r"sendemail\.(?:smtpserver|tocmd|cccmd)|remote\.[\w.-]+\.(?:receivepack|uploadpack)|ssh\.variant|"
    r"interactive\.difffilter)$"
)
# The agents that fence, watch and record a host (its firewall, mandatory access control, audit trail,
# intrusion detection and endpoint sensors), as their services, roles and settings are named: a service
# stopped, a role taken out of a playbook or a setting named for one switched off is that control gone
HOST_SECURITY_AGENTS = (
    r"(?:firewalld|ufw|apparmor|auditd|auditbeat|selinux|fail2ban|falcon-sensor|crowdstrike|osqueryd?"
    # (and the automatic security updates: unpatched, the host stays open to what was fixed)
    r"|unattended-upgrades|apt-daily-upgrade|dnf-automatic(?:-install)?|yum-cron"
    r"|wazuh(?:-agent)?|ossec(?:-hids)?|clamav(?:-daemon)?|clamd|sshguard|crowdsec|falco|tripwire|aide"
    # (and the devices and programs a host lets run: USBGuard's device allow-list, fapolicyd's)
    r"|usbguard|fapolicyd"
    # (and macOS's: Santa, XProtect, the application firewall, osquery's and EDR agents' launchd jobs)
    r"|com\.google\.santa\w*|santad|com\.apple\.XProtect\w*|com\.apple\.alf\w*|com\.crowdstrike\.\w+"
    # (and Windows' services: Defender, its network inspection and sensor, the firewall, the event log)
    r"|WinDefend|WdNisSvc|Sense|MpsSvc|BFE|EventLog|wscsvc|SecurityHealthService)"
)
# The services a host runs to guard it: its security agents, and any service named for what it guards,
# whatever the product (`acme-safety-supervisor`, `edge-firewall`, `audit-forwarder`, `fleet-watchdog`)
GUARD_SERVICES = (
    rf"(?:{HOST_SECURITY_AGENTS}"
    # (and the agents that ship a host's logs and metrics away: stopped, what happens next goes unrecorded)
    r"|rsyslog|syslog-ng|systemd-journald|filebeat|fluent-?bit|fluentd|td-agent(?:-bit)?|promtail|vector"
    r"|splunkd|splunkforwarder|datadog-agent|newrelic-infra|telegraf|(?:prometheus-)?node[-_]exporter"
    r"|otelcol(?:-contrib)?|zabbix-agent2?|elastic-agent|nxlog|grafana-agent|alloy"
    r"|[\w.@-]*?(?:\b|_)(?:[Ss]afety|[Ss]ecurity|[Aa]udit|[Ff]irewall|[Aa]nti-?(?:virus|malware)|[Ww]atchdog"
    r"|[Ff]ailsafe|[Ee]-?stop|[Ii]ntrusion|[Gg]eofence)[\w@.-]*)"  # (one way to match a name's rest)
)
# Security scanners and their CI actions, by the words CI files and hook configurations name them with: a
# change that takes one out of the project's checks switches that check off for everyone
SECURITY_CHECKS = re.compile(
    r"(?i)\b(?:gitleaks|trufflehog|detect-secrets|ggshield|semgrep|codeql(?:-action)?|trivy(?:-action)?|grype|"
    r"snyk|bandit|gosec|govulncheck|osv-scanner|pip-audit|checkov|tfsec|kics|zizmor|dependency-review-action|"
    r"vulnix|"
    r"detect-private-key|detect-aws-credentials|"
    r"(?:npm|yarn|pnpm|composer|cargo|bundle)\s+audit|bundler-audit|brakeman|safety\s+check|cargo\s+deny|"
    # (Rust's advisory and licence checks as their actions and binaries are named)
    r"cargo-(?:deny|audit)(?:-action)?|rustsec/audit-check|"
    r"dependency-?check\w*|sonar(?:-scanner|qube|cloud)?(?![-.])|sobelow|mix\s+(?:deps|hex)\.audit|mix_audit|"
    r"safety\s+scan|terrascan|kubesec|prowler|dockle|bearer|horusec|njsscan|mobsfscan|audit-ci|retire(?:\.js)?|"
    r"Security/(?:SAST|Secret-Detection|Dependency-Scanning|Container-Scanning|DAST|IaC)|"
    # a CI file of the project's own named for them (`include: - local: .gitlab/ci/security.yml`, a reusable
    # workflow `uses: ./.github/workflows/sast.yml`)
    r"[\w./-]*(?:security|sast|secret[-_]?(?:detection|scan\w*)|vuln\w*|(?:dependency|container)[-_]scanning)"
    r"[\w.-]*\.ya?ml)\b"
)
# A manifest that hands out the whole cluster: a binding to `cluster-admin` (or `admin`), or a role whose
# rules allow every verb on every resource
CLUSTER_ADMIN = re.compile(
    r"""(?s)\broleRef["']?\s*:.{0,200}?\bname["']?\s*:\s*["']?(?:cluster-admin|admin)["']?\s*(?:[,}\n]|$)"""
    r"""|\A(?=.*\bresources["']?\s*:\s*\[\s*["']\*["']\s*\])(?=.*\bverbs["']?\s*:\s*\[\s*["']\*["']\s*\])"""
)
# A workload handed its node, in a manifest or a pod spec (YAML or JSON): privileged, the host's process,
# network or IPC namespace, the host's root or engine socket mounted
NODE_ACCESS = re.compile(
    r"""["']?\b(?:privileged|hostPID|hostNetwork|hostIPC)["']?\s*:\s*true\b"""
    r"""|\bhostPath["']?\s*:\s*\{?\s*["']?path["']?\s*:\s*["']?(?:/|/var/run/docker\.sock|/run/containerd/"""
    r"""containerd\.sock)["']?\s*(?:[,}\n]|$)"""
)
# A team or account whose review a code-owners file requires, named for security: a change that drops it
# lets changes to what it owned merge unreviewed by it
SECURITY_OWNERS = re.compile(r"(?i)@[\w.-]+/[\w-]*(?:security|appsec|secops|infosec|prodsec)[\w-]*")
# Keys that turn off a check git makes on what it fetches when set false (`http.sslVerify false`: every later
# fetch and push accepts any certificate, so anyone on the path can serve the code or take the credentials)
GIT_CHECK_KEYS = re.compile(r"^(?:http(?:\.[^=]+)?\.sslverify|(?:transfer|fetch|receive)\.fsckobjects)$")
GIT_FALSE = frozenset({"false", "no", "off", "0"})
# Git's protections by key, and the value that switches each off: certificates and object checks, the
# ownership check of a repository's folder (`safe.directory = *`: every repository trusted, whoever owns it),
# the checks of names a checkout writes (`core.protectNTFS`), a transport that runs commands (`protocol.ext`)
_GIT_FALSE_VALUE = re.compile("(?i)" + "|".join(sorted(GIT_FALSE)))
GIT_PROTECTIONS: tuple[tuple[re.Pattern[str], re.Pattern[str]], ...] = (
    (GIT_CHECK_KEYS, _GIT_FALSE_VALUE),
    (re.compile(r"^safe\.directory$"), re.compile(r"\*")),
    (re.compile(r"^core\.protect(?:ntfs|hfs)$"), _GIT_FALSE_VALUE),
    (re.compile(r"^protocol\.(?:ext|file)\.allow$|^protocol\.allow$"), re.compile(r"(?i)always")),
)


def git_protection_off(key: str, value: str) -> bool:
    """Setting git `key` (lower case) to `value` switches one of git's protections off."""
    bare = value.strip().strip("\"'")
    return any(k.match(key) and v.fullmatch(bare) for k, v in GIT_PROTECTIONS)


GIT_HOOK_KEYS = re.compile(
    r"^(?:core\.hookspath|include\.path|includeif\..*\.path|core\.worktree|init\.templatedir)$"
)
# Keys whose value git runs on its own, whatever the value (not only when the user asks for the command).
GIT_SILENT_KEYS = frozenset({"core.fsmonitor", "uploadpack.packobjectshook"})
# A command-valued setting that is more than naming a program: a shell line, or a shell or interpreter
# or downloader at its head. `core.editor = vim` is a choice of tool; `core.pager = sh -c ...` is code.
SHELL_LIKE_VALUE = re.compile(
    r"[|;&`]|\$\(|^\s*(?:sh|bash|zsh|dash|python\d*(?:\.\d+)?|node|perl|ruby|php|curl|wget|nc|ncat)\b"
)

# A program path the agent could have written: relative to the project, or in a temporary folder.
AGENT_WRITABLE_PROGRAM = re.compile(
    r"^(?:\.{1,2}[/\\]|(?![/~$%])[^\s/\\]+[/\\])|^/(?:tmp|var/tmp|dev/shm)/|\$\{workspaceFolder\}"
)


def git_value_concerns(key: str, value: str) -> bool:
    """Whether setting git `key` (lower case) to `value` makes git run code beyond naming a tool: a hook or
    config location, a key git runs silently, a shell-like command or a program the agent could have
    written (the same test for `git config KEY V` and for a written `.gitconfig`)."""
    return bool(
        GIT_HOOK_KEYS.match(key)
        or key in GIT_SILENT_KEYS
        or (
            GIT_COMMAND_KEYS.match(key)
            and (SHELL_LIKE_VALUE.search(value) or AGENT_WRITABLE_PROGRAM.search(value.strip()))
        )
    )


_W, _E = r"(?<!\S)", r"(?!\S)"  # a word's start and end in the words after a program's name
# Kafka's tools pointed at a broker on this machine: a developer's own
_LOCAL_BROKER = r"--bootstrap-server[=\s]+(?:localhost|127\.0\.0\.1|\[::1\])[:\s]"
_READ_FILE = (R.READS,)

_SUDO_OPTS = (
    *("-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U", "-T", "--user", "--group", "--prompt"),
    *("--close-from", "--chdir", "--host", "--role", "--type", "--other-user"),
)
_RLWRAP_OPTS = ("-f", "-H", "-P", "-S", "-C", "-D", "-l", "-w", "-z", "-e", "-q", "-p", "-a", "-g", "-o")

_UV_OPTS = (
    *("--from", "--with", "--with-requirements", "--with-editable", "--python", "-p", "--index-url"),
    *("--extra-index-url", "--index", "--directory", "--project", "--env-file", "--extra", "--group"),
    *("--package", "--only-group", "-w"),
)
_PIPX_OPTS = ("--spec", "--python", "--index-url", "--pip-args")
_NPM_OPTS = (
    *("-p", "--package", "-w", "--workspace", "-c", "--call", "--filter", "-F", "-C", "--dir", "--prefix"),
)

# The npm registry's commands pnpm and yarn pass on to npm, and their own: any other first operand is a script
# of package.json or a program of node_modules/.bin they run (`yarn node -e CODE` runs node).
_NPM_PASSED_ON = (
    *("access", "adduser", "bugs", "deprecate", "dist-tag", "docs", "edit", "find", "home", "info", "issues"),
    *("login", "logout", "owner", "ping", "prefix", "profile", "repo", "search", "show", "star", "stars"),
    *("team", "token", "unpublish", "unstar", "v", "version", "versions", "view", "whoami", "pkg"),
    "set-script",
)
_PNPM_COMMANDS = (
    *_NPM_PASSED_ON,
    *("add", "install", "i", "update", "up", "upgrade", "remove", "rm", "uninstall", "un", "link", "ln"),
    *("unlink", "import", "rebuild", "rb", "prune", "fetch", "install-test", "it", "patch", "patch-commit"),
    *("patch-remove", "audit", "list", "ls", "ll", "la", "outdated", "why", "licenses", "run", "run-script"),
    *("test", "t", "tst", "exec", "dlx", "create", "start", "publish", "pack", "recursive", "multi", "m"),
    *("server", "store", "root", "bin", "setup", "init", "deploy", "doctor", "config", "c", "get", "set"),
    *("env", "cat-file", "cat-index", "find-hash", "self-update", "approve-builds", "ignored-builds"),
    *("dedupe", "help", "restart", "stop", "catalog", "completion", "sbom", "cache", "store-path"),
)
_YARN_COMMANDS = (
    *_NPM_PASSED_ON,
    *("add", "audit", "autoclean", "bin", "cache", "check", "config", "constraints", "create", "dedupe"),
    *("dlx", "exec", "explain", "generate-lock-entry", "global", "help", "import", "init", "install"),
    *("licenses", "link", "list", "npm", "outdated", "pack", "patch", "patch-commit", "plugin", "policies"),
    *("publish", "rebuild", "remove", "run", "set", "stage", "tag", "test", "unlink", "unplug", "up"),
    *("upgrade", "upgrade-interactive", "why", "workspace", "workspaces", "start", "sdks", "dedup"),
)

# Options of network clients that take the next word as their value (what is left is a host, URL or file).
_CURL_OPTS = (
    "-A",
    "-b",
    "-C",
    "-c",
    "-D",
    "-d",
    "-E",
    "-e",
    "-F",
    "-H",
    "-K",
    "-m",
    "-o",
    "-Q",
    "-r",
    "-T",
    "-t",
    "-U",
    "-u",
    "-w",
    "-X",
    "-x",
    "-Y",
    "-y",
    "-z",
    "--cacert",
    "--cert",
    "--config",
    "--connect-timeout",
    "--connect-to",
    "--cookie",
    "--cookie-jar",
    "--data",
    "--data-binary",
    "--data-raw",
    "--data-urlencode",
    "--dump-header",
    "--form",
    "--header",
    "--key",
    "--max-time",
    "--output",
    "--proxy",
    "--referer",
    "--request",
    "--resolve",
    "--retry",
    "--upload-file",
    "--user",
    "--user-agent",
    "--write-out",
)
_WGET_OPTS = (
    "-a",
    "-e",
    "-i",
    "-O",
    "-o",
    "-P",
    "-T",
    "-t",
    "-U",
    "--body-data",
    "--body-file",
    "--directory-prefix",
    "--header",
    "--method",
    "--output-document",
    "--password",
    "--post-data",
    "--post-file",
    "--timeout",
    "--tries",
    "--user",
    "--user-agent",
)
_NC_OPTS = (
    "-c",
    "-e",
    "-G",
    "-g",
    "-I",
    "-i",
    "-M",
    "-m",
    "-O",
    "-P",
    "-p",
    "-q",
    "-s",
    "-T",
    "-V",
    "-W",
    "-w",
    "-X",
    "-x",
    "--exec",
    "--idle-timeout",
    "--lua-exec",
    "--proxy",
    "--proxy-type",
    "--sh-exec",
    "--source",
    "--source-port",
    "--wait",
)
_SSH_OPTS = (
    "-B",
    "-b",
    "-c",
    "-D",
    "-E",
    "-e",
    "-F",
    "-I",
    "-i",
    "-J",
    "-L",
    "-l",
    "-m",
    "-O",
    "-o",
    "-p",
    "-Q",
    "-R",
    "-S",
    "-W",
    "-w",
)
_SCP_OPTS = ("-c", "-F", "-i", "-J", "-l", "-o", "-P", "-S", "-X")
_SFTP_OPTS = ("-B", "-b", "-c", "-D", "-F", "-i", "-J", "-l", "-o", "-P", "-R", "-S", "-s", "-X")
_RSYNC_OPTS = (
    "-e",
    "-f",
    "-T",
    "--exclude",
    "--exclude-from",
    "--files-from",
    "--filter",
    "--include",
    "--log-file",
    "--password-file",
    "--port",
    "--rsh",
    "--rsync-path",
    "--temp-dir",
)
_DIG_OPTS = ("-b", "-c", "-f", "-k", "-p", "-q", "-t", "-x", "-y")
_NSLOOKUP_OPTS = ("-port", "-query", "-timeout", "-type")
_HOST_OPTS = ("-c", "-m", "-N", "-R", "-t", "-W")
_TELNET_OPTS = ("-b", "-e", "-l", "-n", "-X")
_FTP_OPTS = ("-o", "-P", "-q", "-r", "-s")
_ZTCP_OPTS = ("-d",)

# HTTPie and xh, which share its syntax (`http [METHOD] URL key=value Header:value`); `https` and `xhs`
# default to TLS. The normaliser reads their destinations and the egress floor their reads by this syntax.
HTTPIE_NAMES = frozenset({"http", "https", "xh", "xhs", "httpie"})

# The groups and roles that administer a domain, a machine or its mail (a member added is access widened)
_PRIVILEGED_GROUPS = (
    r"(?i)(?:domain|enterprise|schema|key|enterprise key|dns)\s*admins|administrators|account operators"
    r"|backup operators|server operators|print operators|group policy creator owners|organization management"
    r"|exchange (?:trusted subsystem|windows permissions)|remote (?:desktop|management) users|hyper-v"
    r"|\badmins?\b|global administrator"
)
_TRUE = r"\s*:?\s*(?:true|1)\b"
_FALSE = r"\s*:?\s*(?:false|0)\b"
# An account's flags that weaken its logon: no password, a password that never ends, one stored reversibly,
# no Kerberos pre-authentication (its hash taken offline), delegation to anything
_WEAK_ACCOUNT_FLAGS = (
    rf"(?i)-(?:PasswordNeverExpires|PasswordNotRequired|AllowReversiblePasswordEncryption|TrustedForDelegation"
    rf"|TrustedToAuthForDelegation|DoesNotRequirePreAuth|UseDESKeyOnly){_TRUE}"
)
# An address outside the organisation: a guest of the tenant (`#EXT#`), or a personal mailbox
_OUTSIDE_MAILBOX = r"(?i)#EXT#|@(?:" + "|".join(re.escape(d) for d in sorted(FREE_MAIL_DOMAINS)) + r")\b"
# PowerShell's cmdlets that change what they name (`limen.normalize.powershell` hands a cmdlet it has no
# translation of to the shell analysis under its lower-cased name, its parameters as words): an
# administrator's everyday changes of a directory, a mail service, a tenant, a cloud and a machine, each
# with the invocations that widen access, switch a control off, forward mail, make something run later or
# destroy. A changing cmdlet not listed here leaves a script opaque.
_CMDLETS: tuple[Program, ...] = (
    *(
        _p(name, R.ADMINISTERS, changes=".")
        for name in (
            *("unlock-adaccount", "enable-adaccount", "disable-adaccount", "move-adobject"),
            *("rename-adobject",),
            *("new-adgroup", "set-adgroup", "new-adorganizationalunit", "add-computer", "rename-computer"),
            *("set-mailboxautoreplyconfiguration", "set-calendarprocessing", "new-distributiongroup"),
            *("add-distributiongroupmember", "enable-mailbox", "new-mailcontact", "remove-inboxrule"),
            *("disable-inboxrule", "new-compliancesearch", "start-compliancesearch", "new-mggroupmember"),
            *("new-mggroupmemberbyref", "revoke-mgusersigninsession", "sync-mgdevicemanagementmanageddevice"),
            *("restart-mgdevicemanagementmanageddevicenow", "update-mguser", "start-azvm", "restart-azvm"),
            *("stop-azvm", "start-azwebapp", "restart-azwebapp", "stop-azwebapp", "restart-service"),
            *("start-service", "start-scheduledtask", "stop-scheduledtask", "enable-scheduledtask"),
            *("disable-scheduledtask", "unregister-scheduledtask", "new-scheduledtaskaction"),
            *("new-scheduledtasktrigger", "new-scheduledtasksettingsset", "new-scheduledtaskprincipal"),
            *("new-selfsignedcertificate", "export-certificate", "set-authenticodesignature", "set-secret"),
            *("remove-mppreference", "clear-dnsclientcache", "register-dnsclient", "gpupdate"),
        )
    ),
    _p("klist", R.ADMINISTERS, R.TEXT_ONLY),  # Kerberos tickets listed, or purged (logged on again)
    *(
        _p(name, R.TEXT_ONLY, R.INSPECTS)
        for name in (
            *("ipconfig", "systeminfo", "tasklist", "gpresult", "getmac", "driverquery", "qwinsta", "quser"),
            *("repadmin", "dcdiag", "nltest", "w32tm", "hostname"),
        )
    ),
    _p(
        "winget",
        R.PACKAGE_INSTALLER,
        R.SECURITY_CONTROL,
        reroutes=r"(?i)(?:^|\s)source\s+(?:add|reset|edit)\b",
        # an installer's hash check or malware scan skipped
        disables=r"(?i)--ignore-security-hash|InstallerHashOverride|--ignore-local-archive-malware-scan",
    ),
    # a directory's accounts: their logon weakened, or a path a logon runs set
    *(
        _p(
            name,
            R.SECURITY_CONTROL,
            disables=_WEAK_ACCOUNT_FLAGS,
            grants=r"(?i)servicePrincipalName|adminCount|msDS-AllowedToDelegateTo|msDS-AllowedToActOnBehalfOf"
            r"|PrincipalsAllowedTo(?:DelegateToAccount|RetrieveManagedPassword)|sIDHistory|scriptPath",
            changes=".",
        )
        for name in (
            "set-aduser",
            "set-adaccountcontrol",
            "set-adcomputer",
            "set-adserviceaccount",
            "new-aduser",
        )
    ),
    *(
        _p(
            name,
            R.SECURITY_CONTROL,
            disables=rf"(?i)-(?:MinPasswordLength\s+[0-7]\b|ComplexityEnabled{_FALSE}|LockoutThreshold\s+0\b"
            rf"|ReversibleEncryptionEnabled{_TRUE})",
            changes=".",
        )
        for name in ("set-addefaultdomainpasswordpolicy", "set-adfinegrainedpasswordpolicy")
    ),
    *(
        _p(name, R.SECURITY_CONTROL, grants=_PRIVILEGED_GROUPS, changes=".")
        for name in ("add-adgroupmember", "add-adprincipalgroupmembership", "add-localgroupmember")
    ),
    _p("new-localuser", R.SECURITY_CONTROL, grants="."),  # an account added to the machine
    _p("enable-localuser", R.SECURITY_CONTROL, grants=r"(?i)administrator|guest|defaultaccount"),
    # mail: forwarded or copied to someone, hidden, its audit or recovery switched off, purged
    _p(
        "set-mailbox",
        R.SECURITY_CONTROL,
        grants=rf"(?i)-(?:ForwardingSmtpAddress|ForwardingAddress|GrantSendOnBehalfTo)\b"
        rf"|-DeliverToMailboxAndForward{_TRUE}",
        disables=rf"(?i)-(?:AuditEnabled|SingleItemRecoveryEnabled|LitigationHoldEnabled){_FALSE}"
        r"|-RetainDeletedItemsFor\s+0\b|-AuditBypassEnabled",
        changes=".",
    ),
    *(
        _p(
            name,
            R.SECURITY_CONTROL,
            grants=r"(?i)-(?:ForwardTo|RedirectTo|ForwardAsAttachmentTo|SendTextMessageNotificationTo)\b",
            disables=rf"(?i)-DeleteMessage{_TRUE}"
            r"|-MoveToFolder\s+.*(?:RSS|Conversation History|Deleted Items|Junk)",
            changes=".",
        )
        for name in ("new-inboxrule", "set-inboxrule")
    ),
    *(
        _p(
            name,
            R.SECURITY_CONTROL,
            grants=r"(?i)-(?:BlindCopyTo|RedirectMessageTo|AddToRecipients|CopyTo|AddManagerAsRecipientType)\b",
            disables=r"(?i)-SetSCL\s+-1\b|-DeleteMessage\b|-StopRuleProcessing.*-SetSCL",
            changes=".",
        )
        for name in ("new-transportrule", "set-transportrule")
    ),
    *(
        _p(name, R.SECURITY_CONTROL, grants=rf"{_OUTSIDE_MAILBOX}|-AccessRights\s+\S*Owner", changes=".")
        for name in ("add-mailboxpermission", "add-recipientpermission", "add-mailboxfolderpermission")
    ),
    _p(
        "set-casmailbox",
        R.SECURITY_CONTROL,
        disables=rf"(?i)-SmtpClientAuthenticationDisabled{_FALSE}|-(?:PopEnabled|ImapEnabled){_TRUE}",
        changes=".",
    ),
    _p("set-transportconfig", R.SECURITY_CONTROL, disables=rf"(?i)-SmtpClientAuthenticationDisabled{_FALSE}"),
    _p("set-adminauditlogconfig", R.SECURITY_CONTROL, disables=rf"(?i)Enabled{_FALSE}"),
    _p("set-mailboxauditbypassassociation", R.SECURITY_CONTROL, disables=rf"(?i)-AuditBypassEnabled{_TRUE}"),
    _p("set-organizationconfig", R.SECURITY_CONTROL, disables=rf"(?i)-AuditDisabled{_TRUE}", changes="."),
    _p("search-mailbox", R.INFRA_DESTROYER, destroys_one=r"(?i)-DeleteContent\b"),
    _p("new-compliancesearchaction", R.INFRA_DESTROYER, destroys_one=r"(?i)-Purge\b"),
    # a tenant's and a cloud's roles, sign-in policies and credentials
    *(
        _p(name, R.SECURITY_CONTROL, grants=".")
        for name in (
            *("new-mgrolemanagementdirectoryroleassignment", "new-mgdirectoryrolememberbyref"),
            *("new-mgserviceprincipalapproleassignment", "new-mgoauth2permissiongrant"),
            *("add-mgapplicationpassword", "add-mgserviceprincipalpassword", "new-azadappcredential"),
            *("new-azadspcredential",),
        )
    ),
    _p(
        "update-mgidentityconditionalaccesspolicy",
        R.SECURITY_CONTROL,
        disables=r"(?i)-State\s+(?:disabled|enabledForReportingButNotEnforced)\b",
        changes=".",
    ),
    _p("remove-mgidentityconditionalaccesspolicy", R.SECURITY_CONTROL, disables="."),
    _p(
        "update-mgpolicyidentitysecuritydefaultenforcementpolicy",
        R.SECURITY_CONTROL,
        disables=rf"(?i)-IsEnabled{_FALSE}",
    ),
    _p(
        "update-mgpolicyauthorizationpolicy",
        R.SECURITY_CONTROL,
        grants=rf"(?i)-AllowInvitesFrom\s+everyone|AllowedToCreateApps\s*=\s*true|-AllowEmailVerifiedUsersToJoin"
        rf"Organization{_TRUE}",
        changes=".",
    ),
    _p(
        "new-azroleassignment",
        R.SECURITY_CONTROL,
        grants=r"(?i)^(?!.*-RoleDefinitionName\s+[\w ]*Reader\b)",
        changes=".",
    ),
    _p(
        "set-azstorageaccount",
        R.SECURITY_CONTROL,
        grants=rf"(?i)-AllowBlobPublicAccess{_TRUE}|-PublicNetworkAccess\s+Enabled\b",
        disables=rf"(?i)-EnableHttpsTrafficOnly{_FALSE}|-MinimumTlsVersion\s+TLS1_[01]\b",
        changes=".",
    ),
    _p(
        "set-azrecoveryservicesvaultproperty",
        R.SECURITY_CONTROL,
        disables=r"(?i)-SoftDeleteFeatureState\s+Disable",
        changes=".",
    ),
    # the machine: its protections, firewall, shares, remote management, event logs, services and tasks
    _p(
        "set-mppreference",
        R.SECURITY_CONTROL,
        disables=r"(?i)-Disable\w+\s*:?\s*(?:true|1)\b|-(?:MAPSReporting|SubmitSamplesConsent)\s+(?:0|2|Disabled"
        r"|Never\w*)\b|-(?:PUAProtection|EnableControlledFolderAccess|EnableNetworkProtection)\s+(?:0|Disabled"
        r"|AuditMode)\b|-Exclusion\w+|-AttackSurfaceReductionRules_Actions\s+(?:0|Disabled?|AuditMode|Warn)\b",
    ),
    _p(
        "add-mppreference",
        R.SECURITY_CONTROL,
        disables=r"(?i)-Exclusion\w+|-ControlledFolderAccessAllowedApplications|-AttackSurfaceReductionOnly"
        r"Exclusions|-ThreatIDDefaultAction_Actions\s+(?:6|Allow)\b"
        r"|-AttackSurfaceReductionRules_Actions\s+(?:0|Disabled?|AuditMode|Warn)\b",
    ),
    _p(
        "set-executionpolicy",
        R.SECURITY_CONTROL,
        disables=r"(?i)^(?!.*-Scope\s+Process\b).*\b(?:Bypass|Unrestricted)\b",
    ),
    _p(
        "set-netfirewallprofile",
        R.SECURITY_CONTROL,
        disables=rf"(?i)-Enabled{_FALSE}|-Enabled\s*:?\s*False\b|-DefaultInboundAction\s+Allow\b",
    ),
    *(
        _p(
            name,
            R.SECURITY_CONTROL,
            grants=r"(?i)^(?=.*-Action\s+Allow\b)(?=.*(?:-RemoteAddress\s+(?:Any|\*|0\.0\.0\.0/0)\b"
            r"|-LocalPort\s+['\"]?(?:3389|22|23|445|135|139|5985|5986|5900)\b))",
            changes=".",
        )
        for name in ("new-netfirewallrule", "set-netfirewallrule")
    ),
    _p(
        "set-smbserverconfiguration",
        R.SECURITY_CONTROL,
        disables=rf"(?i)-(?:RequireSecuritySignature|EnableSecuritySignature|EncryptData|RejectUnencryptedAccess)"
        rf"{_FALSE}|-EnableSMB1Protocol{_TRUE}",
    ),
    _p(
        "enable-windowsoptionalfeature",
        R.SECURITY_CONTROL,
        disables=r"(?i)SMB1Protocol|TelnetServer|TFTP\b",
    ),
    _p(
        "set-item",
        R.SECURITY_CONTROL,
        disables=r"(?i)wsman:.*(?:TrustedHosts.*\*|AllowUnencrypted.*true|Auth\W+Basic.*true)",
        schedules=r"(?i)hk(?:cu|lm):?\\.*\\(?:Run|RunOnce)\b",
    ),
    *(_p(name, R.SECURITY_CONTROL, disables=".") for name in ("clear-eventlog", "remove-eventlog")),
    _p(
        "stop-service",
        R.SECURITY_CONTROL,
        disables=rf"(?i){HOST_SECURITY_AGENTS}",
    ),
    _p(
        "set-service",
        R.SECURITY_CONTROL,
        disables=rf"(?i)^(?=.*{HOST_SECURITY_AGENTS})(?=.*-StartupType\s+Disabled\b)",
        schedules=r"(?i)-BinaryPathName\b",
        changes=".",
    ),
    _p("new-service", R.SECURITY_CONTROL, schedules="."),  # a program the machine starts by itself
    *(
        _p(name, R.SECURITY_CONTROL, schedules=".")  # a program run later, by itself
        for name in ("register-scheduledtask", "set-scheduledtask")
    ),
    _p(
        "import-certificate",
        R.SECURITY_CONTROL,
        disables=r"(?i)Cert:\\(?:LocalMachine|CurrentUser)\\(?:Root|AuthRoot)\b",
    ),
)


PROGRAMS: tuple[Program, ...] = (
    # ------------------------------------------------------------------ shells and interpreters
    _p(
        "sh",
        R.SHELL,
        aliases=("bash", "zsh", "dash", "ksh", "ash", "mksh", "yash", "rbash", "fish", "csh", "tcsh"),
    ),
    # An interpreter's `options` take a value: the next word, or the rest of a cluster (`ruby -rnet/http`);
    # `attached_options` only the rest (`perl -Mstrict`, `perl -pi.bak`): a letter there is part of the
    # value, never a code option.
    _p(
        "python",
        R.INTERPRETER,
        aliases=("python2", "python3", "pypy", "pypy3"),
        family=True,
        options=("-W", "-X", "-Q", "--check-hash-based-pycs"),
    ),
    _p(
        "node",
        R.INTERPRETER,
        # runners of TypeScript and modern JavaScript files: node with a loader (`tsx scripts/sync.ts`)
        aliases=("nodejs", "tsx", "ts-node", "ts-node-esm", "vite-node", "esno", "esrun", "jiti"),
        family=True,
        options=("-r", "--require", "--import", "--loader", "--experimental-loader", "-C", "--conditions"),
    ),
    # Deno: its packages come from JSR unless a requirement names npm (`deno add npm:chalk`); `deno run`
    # fetches and runs a package it names (`deno run -A jsr:@fresh/init`)
    _p(
        "deno",
        R.INTERPRETER,
        R.PACKAGE_INSTALLER,
        registry="jsr",
        installs=("add", "install", "i"),
        runs_package=("run", "x"),
        options=("-n", "--name", "-c", "--config", "--import-map", "--lock", "--root", "-L", "--log-level"),
        disables=rf"{_W}--unsafely-ignore-certificate-errors(?:=\S*)?{_E}",
        # a script at an address installed as a command of its own (`deno install -g URL`)
        fetches_code=rf"{_W}install{_E}(?=.*{_W}(?:-g|--global){_E}).*://",
    ),
    _p(
        "bun",
        R.INTERPRETER,
        R.PACKAGE_INSTALLER,
        registry="npm",
        installs=("add", "install", "i"),
        runs_package=("x",),
        initializers=("create",),
        # every installed package's install scripts let run, the list bun keeps of those it trusts bypassed
        disables=rf"{_W}pm\s+trust{_E}.*(?:^|\s)--all{_E}",
    ),
    # Node's package-manager manager: it downloads the pnpm or yarn a project names, from the registry its
    # variables name (`COREPACK_NPM_REGISTRY`), and runs it
    _p("corepack", R.PACKAGE_INSTALLER, R.DOWNLOADS),
    _p("perl", R.INTERPRETER, family=True, attached_options=("-I", "-M", "-m", "-i", "-F", "-C", "-x")),
    _p(
        "ruby",
        R.INTERPRETER,
        family=True,
        options=("-r", "-I", "-C", "-E"),
        attached_options=("-i", "-x", "-K", "-F"),
    ),
    _p("php", R.INTERPRETER, family=True, options=("-d", "-c", "-z", "-f", "-F")),
    _p("lua", R.INTERPRETER, aliases=("luajit", "resty"), family=True, options=("-l",)),
    # Elixir: `elixir -e CODE`, `elixir script.exs` (and `mix run -e CODE`, mix's console)
    _p("elixir", R.INTERPRETER, options=("-r", "--require", "-pr", "--erl", "--sname", "--name", "--cookie")),
    # Julia (a package added from an address, or a registry added: where packages and their builds come from)
    _p(
        "julia",
        R.INTERPRETER,
        options=("-t", "--threads", "-p", "--procs", "-J", "--sysimage", "-C", "--cpu-target"),
        reroutes=r"\b(?:Registry\.add|RegistrySpec)\s*\(.*\burl\s*=|\bPkg\.(?:add|develop)\s*\(\s*url\s*=",
    ),
    # R: `Rscript -e CODE`, `Rscript FILE`, `R -e CODE`, `R --no-save < FILE` (`R CMD build`: its tools)
    # (a package repository named in its code: `options(repos = ...)`, `install.packages(p, repos = URL)`,
    # Bioconductor's `site_repository`: where packages, and the code they run at install, come from)
    _p(
        "Rscript",
        R.INTERPRETER,
        aliases=("R",),
        options=("--default-packages",),
        reroutes=r"\b(?:repos|site_repository)\s*=\s*(?:c\s*\()?[^)]*://",
    ),
    _p("awk", R.INTERPRETER, R.TEXT_ONLY, R.FILTER, aliases=("gawk", "mawk", "nawk")),
    # PowerShell's options are read without case (`-ExecutionPolicy`, `-ep`); `-Command`, `-EncodedCommand`
    # and `-CommandWithArgs` (and any prefix of theirs) carry code, the subset `powershell_line` reads
    _p(
        "powershell",
        R.SCRIPT_HOST,
        aliases=("pwsh",),
        options=(
            *("-executionpolicy", "-ep", "-ex", "-workingdirectory", "-wd", "-windowstyle", "-w"),
            *("-configurationname", "-outputformat", "-of", "-inputformat", "-if", "-version", "-v"),
            *("-settingsfile", "-psconsolefile", "-custompipename"),
        ),
        code_options=("-command", "-encodedcommand", "-ec", "-commandwithargs", "-cwa"),
        script_suffixes=(".ps1",),
    ),
    _p(
        "osascript",
        R.SCRIPT_HOST,
        options=("-l", "-s"),
        code_options=("-e",),
        script_suffixes=(".scpt", ".applescript"),
    ),
    _p("tclsh", R.SCRIPT_HOST, aliases=("wish",), script_suffixes=(".tcl", ".tk")),
    # the read-eval loop of a tool that evaluates code and does not say in which language (an MCP server's
    # `project_eval(code=...)`): its program is code Limen cannot read
    _p("repl", R.SCRIPT_HOST),
    _p("expect", R.SCRIPT_HOST, code_options=("-c",), script_suffixes=(".exp",)),
    _p(
        "jshell",
        R.SCRIPT_HOST,
        options=("--class-path", "-cp", "--module-path", "-R", "-J"),
        script_suffixes=(".jsh",),
    ),
    # `kotlin script.main.kts`: a Kotlin script, run as it is written
    _p(
        "kotlin",
        R.SCRIPT_HOST,
        options=("-cp", "-classpath"),
        code_options=("-e", "-expression"),
        script_suffixes=(".kts",),
    ),
    # cmd.exe runs its `/c` line (`_cmd_command` reads a subset); run-parts runs whatever programs a folder
    # holds: none of them is read here
    _p("cmd", R.SCRIPT_HOST, aliases=("run-parts",)),
    # languages Limen does not parse, run from an option's value (or the input): `R -e`, `groovy -e`
    _p(
        "groovy",
        R.SCRIPT_HOST,
        # (and Haskell's: `ghc -e EXPR`, `runghc Script.hs`, `cabal repl` fed on its input)
        aliases=(
            *("jrunscript", "jjs", "scala", "clojure", "clj", "racket", "erl"),
            *("ghc", "ghci", "runghc", "runhaskell", "stack-ghc"),
        ),
        code_options=("-e", "--eval", "-eval", "-c", "-f", "--file"),
    ),
    _p(
        "rustc",
        R.COMPILES,
        R.RUNS_OPTION,
        aliases=("gcc", "g++", "cc", "c++", "clang", "clang++", "tcc", "javac", "kotlinc", "c89", "c99"),
        options=("-o", "-x", "-I", "-L", "-l", "-D", "-U", "-include", "-MF", "-wrapper"),
        output_options=("-o",),
        command_options=("-wrapper",),
    ),
    _p("swiftc", R.COMPILES, aliases=("java", "dotnet-script", "zig")),
    # SwiftPM's mirrors: every later resolve takes the package from the mirror instead
    # (`swift run App migrate --revert --all`: the package's own program, run as a command)
    _p(
        "swift", R.COMPILES, R.RUNNER, runs_after=("run",), reroutes=rf"{_W}package\s+config\s+set-mirror{_E}"
    ),
    # nmap's scripts are Lua it runs (`--script=FILE`)
    _p("nmap", R.SCRIPT_HOST, code_options=("--script",)),
    # an editor that runs the Lisp its options give or load
    _p(
        "emacs",
        R.READS,
        R.SCRIPT_HOST,
        R.SHELL_ESCAPE,
        files=0,
        options=("--eval", "-eval", "--execute", "-l", "--load", "-f", "--funcall", "--script"),
        code_options=("--eval", "-eval", "--execute", "-l", "--load", "-f", "--funcall", "--script"),
    ),
    # configuration management: `-a` of the shell, command and raw modules is a command line
    _p(
        "ansible",
        R.RUNS_OPTION,
        R.REMOTE_LOGIN,
        options=("-m", "-i", "-u", "-e"),
        command_options=("-a", "--args"),
        # an ad-hoc module that changes the hosts (`-m user`, `-m selinux`, `-m reboot`); the command modules'
        # lines are read as the commands they are, and the fact-gathering ones read
        changes=r"(?:^|\s)(?:-m|--module-name)[=\s]+(?!(?:ansible\.builtin\.)?(?:ping|setup|debug|stat|command|shell|raw"
        r"|gather_facts|service_facts|package_facts|find|slurp|fetch|wait_for|uri)(?:\s|$))\S+",
    ),
    # SaltStack: `salt TARGET cmd.run 'CMD'` runs CMD as root on every minion the target matches (`salt-ssh`
    # over ssh, `salt-call` on this one); `salt-key -D` deletes every minion's key: the fleet is cut off
    *(
        _p(
            name,
            R.REMOTE_LOGIN,
            R.RUNS_OPTION,
            options=(
                *("-t", "--timeout", "--out", "-b", "--batch-size", "--return", "-c", "--config-dir"),
                *("--log-level", "-l", "--out-file", "--tgt-type", "--roster", "--roster-file", "-i"),
            ),
            skip_operands=skip,
            remote_runs=("cmd.run", "cmd.shell", "cmd.run_all", "cmd.run_stdout", "cmd.run_bg"),
            # a script fetched from an address and run on the minions; a security agent stopped there; a
            # file or a folder removed from them
            fetches_code=rf"{_W}cmd\.script\s+['\"]?(?:https?|ftp)://",
            disables=rf"{_W}service\.(?:stop|disable|dead|kill){_E}\s+['\"]?{GUARD_SERVICES}",
            destroys_one=rf"{_W}(?:state\.single\s+file\.absent|file\.remove|file\.rmdir){_E}",
        )
        for name, skip in (("salt", 1), ("salt-ssh", 1), ("salt-call", 0))
    ),
    # fleet shells: the line runs on every host the list, group or search names (`pdsh -w web[1-4] CMD`,
    # `clush -g db CMD`, `knife ssh 'role:db' CMD`)
    _p(
        "pdsh",
        R.REMOTE_LOGIN,
        R.RUNS_OPTION,
        aliases=("clush",),
        options=("-w", "-x", "-g", "-X", "-l", "-R", "-t", "-u", "-f", "-F", "-N", "-o", "-O", "-b"),
        remote_runs=("",),
    ),
    _p(
        "knife",
        R.INFRA_DESTROYER,
        R.RUNS_OPTION,
        options=(
            *("-x", "--ssh-user", "-i", "--ssh-identity-file", "-a", "--attribute", "-C", "--concurrency"),
            *("-p", "--ssh-port", "-G", "--ssh-gateway", "-E", "--environment", "-c", "--config"),
        ),
        remote_runs=("ssh",),
        remote_skip=1,
        # Chef's server objects: every node, client or cookbook a pattern matches, or one by name or path
        destroys_all=rf"{_W}bulk\s+delete{_E}",
        destroys_one=rf"{_W}delete{_E}|{_W}-m\s+DELETE{_E}",
    ),
    _p("salt-key", R.INFRA_DESTROYER, destroys_all=rf"(?:^|\s)(?:-\w*D\w*|--delete-all){_E}"),
    # ------------------------------------------------------------------ commands that run a command
    _p("sudo", R.WRAPPER, R.PRIVILEGED, options=_SUDO_OPTS),
    _p("doas", R.WRAPPER, R.PRIVILEGED, options=("-u", "-C")),
    _p("nice", R.WRAPPER, options=("-n", "--adjustment")),
    _p("ionice", R.WRAPPER, options=("-c", "-n", "--class", "--classdata")),
    _p(
        "timeout",
        R.WRAPPER,
        aliases=("gtimeout",),
        options=("-s", "-k", "--signal", "--kill-after"),
        skip_operands=1,
    ),
    _p("stdbuf", R.WRAPPER, options=("-i", "-o", "-e", "--input", "--output", "--error")),
    # environment modules (Lmod, Tcl modules): they set the shell's own variables (`module purge` unloads
    # every module from the environment, no file or store is touched)
    _p("module", R.ENV_SETTER, aliases=("ml",)),
    # Slurm's and MPI's launchers: the command after their options runs on the cluster's nodes (`srun -p debug
    # bash -c CMD`, `mpirun -np 16 --map-by node CMD`); `salloc` starts the user's shell when given none
    _p("srun", R.WRAPPER, options=_SLURM_OPTIONS),
    _p("salloc", R.WRAPPER, options=_SLURM_OPTIONS),
    _p(
        "mpirun",
        R.WRAPPER,
        aliases=("mpiexec", "orterun", "mpiexec.hydra"),
        options=(
            *("-np", "-n", "-c", "-N", "-H", "-x", "-ppn", "-wdir", "-hostfile", "-machinefile", "-env"),
            *("--np", "--n", "--host", "--hostfile", "--machinefile", "--map-by", "--bind-to", "--rank-by"),
            *("--wdir", "--ppn", "--mca", "-mca", "--npernode", "-npernode", "--prefix"),
        ),
    ),
    # `sbatch --wrap CMD` runs CMD as the job's script
    _p("sbatch", R.RUNS_OPTION, options=_SLURM_OPTIONS, command_options=("--wrap",)),
    _p("time", R.WRAPPER, options=("-f", "-o", "--format", "--output")),
    _p("nohup", R.WRAPPER),
    # Xcode's tool runner: `xcrun --sdk iphoneos clang ...` runs the Xcode tool it names; the simulators'
    # own tool makes, erases and deletes simulated devices and runtimes on this machine, which it makes again
    _p("xcrun", R.WRAPPER, options=("--sdk", "--toolchain")),
    _p("simctl", R.SIMULATOR),
    _p("builtin", R.WRAPPER),
    _p("command", R.WRAPPER, R.LOCATES_PROGRAM),
    _p("exec", R.WRAPPER, options=("-a",)),
    _p("setsid", R.WRAPPER),
    _p("coproc", R.WRAPPER),  # `coproc cmd args`: runs cmd in the background
    _p("unbuffer", R.WRAPPER),
    _p("rlwrap", R.WRAPPER, options=(*_RLWRAP_OPTS, "-s", "-t"), output_options=("-l", "--logfile")),
    # `chroot DIR [CMD]`, `setarch ARCH [CMD]`: the command after their first operand, else the user's shell
    _p("chroot", R.WRAPPER, R.PRIVILEGED, options=("--userspec", "--groups"), skip_operands=1, shell=True),
    _p("setarch", R.WRAPPER, aliases=("linux32", "linux64"), skip_operands=1, shell=True),
    _p("cpulimit", R.WRAPPER, options=("-l", "--limit", "-p", "--pid", "-e", "--exe", "-P", "--path")),
    # `capsh [OPTIONS] -- [ARGS]`: bash with ARGS (`-- -c CMD`), an interactive bash with none
    _p("capsh", R.WRAPPER, R.PRIVILEGED, shell=True),
    _p("strace", R.WRAPPER, options=("-e", "-o", "-p", "-s", "-u", "-E")),
    _p("ltrace", R.WRAPPER, options=("-e", "-o", "-p", "-s", "-u")),
    _p("torsocks", R.WRAPPER),
    _p("sshpass", R.WRAPPER, options=("-p", "-f", "-d", "-P")),
    _p("proxychains", R.WRAPPER, aliases=("proxychains4",), options=("-f",)),
    _p("caffeinate", R.WRAPPER, options=("-t", "-w")),
    _p("flock", R.WRAPPER, options=("-w", "-E", "--timeout", "--conflict-exit-code"), skip_operands=1),
    _p("watch", R.WRAPPER, options=("-n", "--interval", "-d", "-q")),
    _p("fakeroot", R.WRAPPER),
    _p("chrt", R.WRAPPER, skip_operands=1),
    _p("taskset", R.WRAPPER, skip_operands=1),
    _p("xvfb-run", R.WRAPPER, options=("-n", "-s", "-f", "-e", "-p", "--server-args", "--server-num")),
    _p("pkexec", R.WRAPPER, R.PRIVILEGED, options=("--user",)),
    _p("runuser", R.WRAPPER, R.PRIVILEGED, options=("-u", "-g", "-G", "--user", "--group")),
    _p("unshare", R.WRAPPER, options=("-S", "-G", "--setuid", "--setgid", "--root", "--wd")),
    _p("nsenter", R.WRAPPER, R.PRIVILEGED, options=("-t", "--target", "-S", "-G", "--setuid", "--setgid")),
    _p("prlimit", R.WRAPPER, options=("-p", "--pid")),
    _p("numactl", R.WRAPPER, options=("-C", "-N", "-m", "-p", "-i", "--physcpubind", "--cpunodebind")),
    _p("firejail", R.WRAPPER),
    _p("catchsegv", R.WRAPPER),
    _p("valgrind", R.WRAPPER),
    _p("env", R.WRAPPER),
    _p("busybox", R.WRAPPER),
    _p("toybox", R.WRAPPER),  # (Android's busybox)
    _p(
        "su",
        R.PRIVILEGED,
        R.RUNS_OPTION,
        R.STARTS_SHELL,
        options=("-s", "--shell", "-g", "--group", "-G", "--supp-group", "-w", "--whitelist-environment"),
        command_options=("-c", "--command", "--session-command"),
    ),
    _p("newgrp", R.PRIVILEGED, R.STARTS_SHELL),
    # kernel modules: native code run inside the kernel
    _p("insmod", R.PRIVILEGED, R.LOADS_CODE, loads_library=r"\S"),
    _p("modprobe", R.PRIVILEGED, R.LOADS_CODE, loads_library=r"(?:^|\s)[^-\s]"),
    _p("xargs", R.WRAPPER, aliases=("parallel",)),
    _p("find", R.READS, R.INSPECTS),  # `-exec CMD`: CMD is a command of its own; `-delete` writes
    _p(
        "npx",
        R.RUNNER,
        aliases=("bunx",),
        options=("-p", "--package", "-w", "--workspace"),
        registry="npm",
        runs_package=("",),
    ),
    _p("uvx", R.RUNNER, options=_UV_OPTS, registry="pypi", runs_package=("",)),
    _p(
        "pipx",
        R.RUNNER,
        R.PACKAGE_INSTALLER,
        runs_after=("run",),
        options=_PIPX_OPTS,
        registry="pypi",
        installs=("install",),
        runs_package=("run",),
    ),
    _p(
        "poetry",
        R.RUNNER,
        R.PACKAGE_INSTALLER,
        R.PACKAGE_PUBLISHER,
        runs_after=("run",),
        registry="pypi",
        installs=("add",),
    ),
    _p("pipenv", R.RUNNER, R.PACKAGE_INSTALLER, runs_after=("run",), registry="pypi", installs=("install",)),
    _p(
        "pdm",
        R.RUNNER,
        R.PACKAGE_INSTALLER,
        R.PACKAGE_PUBLISHER,
        runs_after=("run",),
        registry="pypi",
        installs=("add",),
    ),
    _p("hatch", R.RUNNER, R.PACKAGE_PUBLISHER, runs_after=("run",)),
    _p(
        "uv",
        R.RUNNER,
        R.PACKAGE_INSTALLER,
        R.PACKAGE_PUBLISHER,
        runs_after=("run", "tool run"),
        options=_UV_OPTS,
        registry="pypi",
        installs=("add", "pip install", "tool install"),
        runs_package=("tool run",),
    ),
    _p(
        "conda",
        R.RUNNER,
        R.PACKAGE_INSTALLER,
        aliases=("mamba", "micromamba"),
        runs_after=("run",),
        options=("-n", "--name", "-p", "--prefix", "--cwd"),
        package_options=(("-c", "conda_channel"), ("--channel", "conda_channel")),
    ),
    _p(
        "bundle",
        R.RUNNER,
        R.PACKAGE_INSTALLER,
        runs_after=("exec",),
        registry="rubygems",
        installs=("add",),
        reroutes=rf"{_W}config\s+(?:set\s+)?(?:--\w+\s+)*(?:ssl_verify_mode|mirror\.\S+|source\.\S+"
        rf"|disable_checksum_validation\s+true){_E}|--trust-policy[=\s]+(?:No|Low)Security{_E}",
    ),
    # Dart's and Flutter's pub: `pub add X` and `pub global activate X` install from pub.dev, a package taken
    # from a repository (`X:{"git": URL}`, `--git-url URL`, `--source git URL`) runs its build code
    *(
        _p(
            name,
            R.PACKAGE_INSTALLER,
            R.PACKAGE_PUBLISHER,
            R.BUILDS,
            registry="pub",
            installs=("pub add", "pub global activate"),
            fetches_code=r"--git-url|--source[=\s]+git\b|[{,]\s*\"git\"\s*:",
        )
        for name in ("dart", "flutter")
    ),
    *(
        _p(
            name,
            R.RUNNER,
            R.PACKAGE_INSTALLER,
            R.PACKAGE_PUBLISHER,
            runs_after=after,
            own_commands=own,
            scoped_by=("workspace",) if name == "yarn" else (),
            options=_NPM_OPTS,
            registry="npm",
            installs=installs,
            runs_package=fetched,
            initializers=("create", "init") if name == "npm" else ("create",),
        )
        # (`pnpm exec X` and `yarn exec X` run the project's own X; `dlx` fetches it first)
        for name, after, fetched, installs, own in (
            ("npm", ("exec", "x"), ("exec", "x"), ("install", "i", "add"), ()),
            ("pnpm", ("dlx", "exec"), ("dlx",), ("add", "install", "i"), _PNPM_COMMANDS),
            ("yarn", ("dlx", "exec"), ("dlx",), ("add",), _YARN_COMMANDS),
        )
    ),
    _p("direnv", R.RUNNER, runs_after=("exec",), skip_operands=1),
    # JBang runs a Java source it is given, a file or an address (`jbang https://.../Tool.java`)
    _p(
        "jbang",
        R.RUNNER,
        options=("--deps", "--repos", "-D", "--java", "--cp", "--class-path", "-s", "--sources"),
    ),
    _p("aws-vault", R.RUNNER, runs_after=("exec",), skip_operands=1, options=("-d", "--duration")),
    # 1Password's CLI: a vault deleted takes every item in it; an item deleted (not archived) is gone
    _p(
        "op",
        R.RUNNER,
        runs_after=("run",),
        destroys_all=rf"{_W}vault\s+(?:delete|remove|rm){_E}",
        destroys_one=rf"{_W}(?:item|document)\s+(?:delete|remove|rm){_E}(?!.*{_W}--archive{_E})",
    ),
    # Dovecot's administration: mail expunged for every user (`-A`); one user's old trash is upkeep
    _p("doveadm", R.SERVER_CLIENT, destroys_all=rf"{_W}expunge{_E}.*{_W}-A{_E}|{_W}-A{_E}.*{_W}expunge{_E}"),
    # yadm: git with the home folder as its work tree (`yadm clean -f` deletes every untracked file in it;
    # `yadm push` sends the dotfiles to their remote)
    _p(
        "yadm", R.SENDS, R.DOWNLOADS, destroys_all=rf"{_W}clean{_E}.*{_W}-\w*f|{_W}clean{_E}.*{_W}--force{_E}"
    ),
    _p("doppler", R.RUNNER, runs_after=("run",)),
    _p("nix-shell", R.RUNS_OPTION, command_options=("--run", "--command")),
    # Nix: `nix run INSTALLABLE -- ARGS` runs the installable's program (`nixpkgs#socat` is socat), `nix shell
    # ... -c CMD` and `nix develop -c CMD` run CMD; a profile given an address installs what it names
    _p(
        "nix",
        R.RUNNER,
        R.RUNS_OPTION,
        destroys_all=rf"{_W}store\s+delete{_E}.*--ignore-liveness{_E}",
        runs_after=("run",),
        command_after=("-c", "--command"),
        options=("--option", "--override-input", "--extra-experimental-features", "--profile", "-I"),
        fetches_code=rf"{_W}profile\s+install{_E}.*(?:://|{_W}(?:github|gitlab|sourcehut|git\+\w+):)",
    ),
    # `nix-env -i -f URL`: the expression at an address evaluated and installed into the user's profile; the
    # profile's old generations deleted, there is nothing to roll back to
    _p(
        "nix-env",
        R.PACKAGE_INSTALLER,
        options=("-A", "--attr", "-p", "--profile", "-I"),
        fetches_code=r"(?:^|\s)(?:-\w*[if]\w*|--install|--file)\s+(?:\S+\s+)*\S*://",
        destroys_one=rf"{_W}--delete-generations{_E}",
    ),
    _p("nix-collect-garbage", R.DELETES, options=("--delete-older-than",)),
    # OCaml's package manager: a package pinned to a repository (its build runs now), the build sandbox
    # switched off for every later install
    _p(
        "opam",
        R.PACKAGE_INSTALLER,
        R.PACKAGE_PUBLISHER,
        fetches_code=rf"{_W}pin(?:\s+add)?{_E}.*(?:://|git\+|(?:github|gitlab):)",
        disables=rf"(?:^|\s)--disable-sandboxing{_E}",
    ),
    # NixOS and home-manager switched to a configuration from a repository: its activation scripts run now,
    # as root for a system; a store path deleted though the running system needs it
    *(
        _p(
            name,
            R.BUILDS,
            fetches_code=r"--flake[=\s]+['\"]?(?:github|gitlab|sourcehut|git\+\w+|https?|tarball\+\w+):",
        )
        for name in ("nixos-rebuild", "home-manager", "darwin-rebuild")
    ),
    # Ansible's pull mode: a playbook from a repository run on this machine (as root, under sudo)
    _p("ansible-pull", R.BUILDS, fetches_code=r"(?:^|\s)(?:-U|--url)(?:=|\s+)\S"),
    # test and development machines made from the project's own files (a molecule scenario, a kitchen suite,
    # a Vagrantfile, which is Ruby run on every command): destroyed, they are made again from those files
    _p("molecule", R.BUILDS),
    _p("kitchen", R.BUILDS),
    _p("vagrant", R.BUILDS),
    # Cachix: `cachix use NAME` makes Nix take prebuilt binaries from that cache, for good
    _p("cachix", R.PACKAGE_INSTALLER, reroutes=rf"{_W}use{_E}"),
    # a terminal session recorded: `-c` names the command it runs, else it starts the user's shell
    _p(
        "script",
        R.RUNS_OPTION,
        R.STARTS_SHELL,
        options=("-t", "--timing", "-T", "-I", "-O", "-B", "--log-in", "--log-out", "--log-io", "-E"),
        command_options=("-c", "--command"),
    ),
    _p("sg", R.PRIVILEGED, R.RUNS_OPTION, R.STARTS_SHELL, command_options=("-c",)),
    _p("xterm", R.RUNNER, aliases=("urxvt", "rxvt")),
    _p("tmux", R.RUNNER),
    _p("screen", R.RUNNER),
    _p(
        "pip",
        R.PACKAGE_INSTALLER,
        aliases=("pip3",),
        family=True,
        registry="pypi",
        installs=("install", "download"),
        reroutes=rf"{_W}config\s+set\s+\S*(?:index-url|find-links|trusted-host){_E}",
        # a requirements or constraints list fetched from an address: whatever it names when it is read
        fetches_code=r"(?:^|\s)(?:-[rc]\s*|--(?:requirement|constraint)[=\s]+)https?://",
    ),
    _p(
        "gem",
        R.PACKAGE_INSTALLER,
        R.PACKAGE_PUBLISHER,
        reroutes=rf"{_W}sources\s+(?:-a|--add){_E}",
        # (a gem's signature left unchecked: `--trust-policy NoSecurity`)
        disables=rf"{_W}(?:-P|--trust-policy)[=\s]+(?:NoSecurity|LowSecurity|AlmostNoSecurity){_E}",
        registry="rubygems",
        installs=("install",),
    ),
    _p(
        "conda",
        R.PACKAGE_INSTALLER,
        aliases=("mamba", "micromamba"),
        # (another channel than conda's best-known ones: `facts.packages.CONDA_CHANNELS`)
        reroutes=rf"{_W}config\s+.*--(?:add|prepend|set)\s+channels\s+(?!(?:{'|'.join(CONDA_CHANNELS)})(?:\s|$))\S",
        # its downloads' certificates no longer checked
        disables=rf"{_W}config\s+.*--set\s+ssl_verify\s+(?:false|no|0){_E}",
    ),
    # Spack: its downloads' certificates, or its binary caches' signatures, no longer checked
    _p(
        "spack",
        R.PACKAGE_INSTALLER,
        disables=rf"config:verify_ssl:false|{_W}(?:-k|--insecure){_E}|{_W}buildcache\s+keys\s+.*--trust{_E}"
        rf"|--no-check-signature{_E}",
    ),
    *(
        _p(
            name,
            R.PACKAGE_INSTALLER,
            # (and lockfiles off: every later install resolves whatever the registry serves that day)
            reroutes=rf"{_W}config\s+set\s+(?:\S*registry\S*|npmRegistryServer|script-shell|shell|git|editor|node-options|globalconfig|userconfig|strict-ssl|strictSSL|cafile|ca|package-lock\s+false|package-lock=false){_E}",
        )
        for name in ("npm", "pnpm", "yarn")
    ),
    _p(
        "cargo",
        R.PACKAGE_INSTALLER,
        R.PACKAGE_PUBLISHER,
        R.BUILDS,  # (its build scripts, `build.rs`, run on every build)
        registry="crates",
        installs=("add", "install"),
    ),
    _p(
        "go",
        R.PACKAGE_INSTALLER,
        R.COMPILES,
        R.RUNS_OPTION,
        registry="go",
        installs=("get", "install"),
        runs_package=("run",),
        command_options=("-toolexec", "-exec"),  # a program run on every compile step, or on the binary
    ),
    _p(
        "composer",
        R.PACKAGE_INSTALLER,
        registry="packagist",
        installs=("require", "global require"),
        # a package source of its own, or TLS and HTTPS checks off for every later install
        reroutes=rf"{_W}config\s+(?:--global\s+|-g\s+)?(?:repositories\.\S+|secure-http\s+(?:false|0)"
        rf"|disable-tls\s+(?:true|1)){_E}",
    ),
    _p("twine", R.PACKAGE_PUBLISHER),
    # anaconda.org's client: `remove OWNER/PACKAGE` deletes a package (every release of it) from its channel
    _p("anaconda", R.PACKAGE_PUBLISHER, destroys_one=rf"{_W}remove{_E}"),
    # itch.io's uploader: `butler push DIR USER/GAME:CHANNEL` publishes a build on that page
    _p("butler", R.PACKAGE_PUBLISHER),
    # Globus: a collection's files deleted; a share opened to anyone, or to every signed-in Globus user
    _p(
        "globus",
        R.INFRA_DESTROYER,
        destroys_one=rf"{_W}(?:delete|rm){_E}",
        grants=rf"{_W}permission\s+create{_E}.*{_W}(?:--anonymous|--all-authenticated){_E}",
        changes=rf"{_W}(?:delete|rm|transfer|permission|endpoint\s+(?:create|update|delete)){_E}",
    ),
    _p(
        "apt",
        R.PACKAGE_INSTALLER,
        aliases=("apt-get", "dnf", "yum", "apk", "brew", "pacman", "zypper"),
        # a host's security agent uninstalled: its watch and its fence gone with it
        disables=rf"{_W}(?:remove|purge|autoremove|erase|del|uninstall|-R\w*){_E}.*{_W}{HOST_SECURITY_AGENTS}{_E}",
        # packages removed with the manager's own guard off (what the system needs to boot or run, or what
        # others depend on: apt's essential packages, pacman's `-Rdd`), or a past transaction undone whole
        destroys_one=rf"{_W}--allow-remove-essential{_E}|{_W}-R\w*d\w*d\w*{_E}"
        rf"|{_W}history\s+(?:undo|rollback){_E}",
    ),
    # the package databases' own tools: a package erased without its dependents' check, or essential
    _p("rpm", R.PACKAGE_INSTALLER, destroys_one=rf"^(?=.*{_W}(?:-e|--erase){_E})(?=.*{_W}--nodeps{_E})"),
    _p(
        "dpkg",
        R.PACKAGE_INSTALLER,
        destroys_one=rf"^(?=.*{_W}(?:-r|-P|--remove|--purge){_E})"
        rf"(?=.*{_W}--force-(?:remove-essential|depends|all){_E})",
    ),
    # Commands whose option runs a command line (see `limen.normalize.shell._runs_option`).
    # its egress is `limen.normalize.shell._h_git`'s, its config keys too
    # (a repository cloned or added as a submodule: code taken from its owner, a look-alike's included)
    _p("git", R.RUNS_OPTION, inspects=_GIT_INSPECTS, registry="github", installs=("clone", "submodule add")),
    # version managers' plugins: scripts from the repository named, run to install every version
    _p("asdf", R.DOWNLOADS, registry="github", installs=("plugin add",)),
    _p(
        "tar",
        R.RUNS_OPTION,
        R.READS,
        files=0,
        options=("-C", "-f", "--exclude", "-I", "-F", "--use-compress-program", "--to-command"),
        command_options=(
            *("-I", "--use-compress-program", "--to-command", "-F", "--info-script"),
            *("--new-volume-script", "--checkpoint-action"),
        ),
        removes_operands=r"(?<!\S)--remove-files(?!\S)",
    ),
    _p(
        "rsync",
        R.RUNS_OPTION,
        R.SENDS,
        R.DOWNLOADS,
        options=_RSYNC_OPTS,
        command_options=("-e", "--rsh", "--rsync-path"),
        removes_operands=r"(?<!\S)--remove-source-files(?!\S)",
    ),
    _p("make", R.RUNS_OPTION, aliases=("gmake",), command_options=("--eval", "-E")),
    _p(
        "vim",
        R.RUNS_OPTION,
        R.READS,
        R.SHELL_ESCAPE,
        aliases=("vi", "nvim", "ex", "view", "vimdiff", "gvim"),
        files=0,
        options=("-c", "--cmd", "-S", "-u", "-i", "-T", "-w", "-W", "-s", "-t", "-q"),
        command_options=("-c", "--cmd"),
    ),
    _p(
        "gdb",
        R.RUNS_OPTION,
        options=("-ex", "-iex", "-x", "-ix", "-p", "--pid", "--args"),
        command_options=("-ex", "-iex", "--eval-command", "--init-eval-command"),
    ),
    _p("lldb", R.RUNS_OPTION, command_options=("-o", "-O", "--one-line", "--one-line-before-file")),
    _p("less", R.RUNS_OPTION, R.READS, R.FILTER, R.SHELL_ESCAPE, aliases=("more",), files=0),
    _p(
        "man",
        R.RUNS_OPTION,
        R.TEXT_ONLY,
        R.SHELL_ESCAPE,
        options=("-P", "--pager"),
        command_options=("-P", "--pager"),
    ),
    _p("ed", R.READS, R.SHELL_ESCAPE, aliases=("red",), files=0),
    _p(
        "zip",
        R.RUNS_OPTION,
        options=("-TT", "--unzip-command"),
        command_options=("-TT", "--unzip-command"),
        removes_operands=r"(?<!\S)(?:-[A-Za-z]*m[A-Za-z]*|--move)(?!\S)",
    ),
    _p("7z", R.READS, aliases=("7za", "7zr"), removes_operands=r"(?<!\S)-sdel(?!\S)"),
    # `tcpdump -z CMD`: runs CMD on every file it rotates
    _p(
        "tcpdump",
        R.RUNS_OPTION,
        options=("-i", "-w", "-r", "-W", "-G", "-C", "-z", "-Z"),
        command_options=("-z",),
    ),
    _p(
        "docker",
        R.CONTAINER,
        R.INFRA_DESTROYER,
        aliases=("podman", "nerdctl", "docker-compose", "buildah"),
        pushes=("push",),
        push_target="image",
        # an image pulled or run by name: Docker Hub's official images are the registry's popular names
        registry="docker",
        installs=("pull",),
        runs_package=("run", "create", "container run"),
        options=_DOCKER_RUN_OPTS,
        mounts=("-v", "--volume", "--mount"),
        destroys_one=rf"{_W}volume\s+(?:rm|prune){_E}|{_W}system\s+prune{_E}.*{_W}--volumes{_E}",
        # `compose down -v` removes the compose project's own volumes: a developer's copy here, a server's
        # data on another machine
        destroys_there=rf"{_W}down{_E}.*{_W}(?:-v|--volumes){_E}",
        elsewhere=r"(?<!\S)(?:--context(?:=|\s+)(?!default(?:\s|$))\S|(?:-H|--host)(?:=|\s+)(?!unix:)\S)",
        inspects=r"^(?:ps|images|logs|inspect|stats|version|info|top|port|history)(?:\s(?!.*--output)|$)",
    ),
    _p("at", R.PRIVILEGED, aliases=("batch",)),  # runs the commands it reads, later
    _p(
        "systemd-run",
        R.WRAPPER,
        options=(
            *("-u", "--unit", "-p", "--property", "--on-calendar", "--on-active", "-E", "--setenv"),
            *("--uid", "--gid", "-M", "--machine", "--description", "--slice", "-H", "--working-directory"),
        ),
    ),
    # ------------------------------------------------------------------ files
    *(
        _p(name, *_READ_FILE, R.INSPECTS, files=0)
        for name in (
            *("tac", "nl", "strings", "od", "hexdump", "file", "stat", "diff", "cmp", "du", "bat", "paste"),
            *("ls", "sum"),
        )
    ),
    # checksums: printed, or checked against a list (`-c`), a check whose failure stops a tampered download
    *(
        _p(name, *_READ_FILE, R.INSPECTS, files=0, verifies=rf"{_W}(?:-c|--check){_E}")
        for name in (
            *("md5sum", "sha1sum", "sha224sum", "sha256sum", "sha384sum", "sha512sum", "b2sum", "shasum"),
            *("cksum",),
        )
    ),
    *(
        _p(name, *_READ_FILE, files=0)
        for name in ("xxd", "zip", "unzip", "gzip", "gunzip", "bzip2", "xz", "split", *SHELL_LOADERS, "nano")
    ),
    _p("readlink", *_READ_FILE, R.LOCATES_PROGRAM, R.INSPECTS, files=0, aliases=("realpath",)),
    _p("cat", R.READS, R.TEXT_ONLY, R.INSPECTS, files=0),
    _p("head", R.READS, R.FILTER, R.INSPECTS, files=0, options=("-n", "-c")),
    _p("tail", R.READS, R.FILTER, R.INSPECTS, files=0, options=("-n", "-c", "-s", "--pid")),
    _p(
        "grep",
        R.READS,
        R.INSPECTS,
        R.TEXT_ONLY,
        R.FILTER,
        R.SCRIPT_FIRST,
        aliases=("egrep", "fgrep", "rg"),
        files=1,
        options=("-A", "-B", "-C", "-m", "-d", "-D", "--include", "--exclude", "--exclude-dir"),
    ),
    _p("rg", R.RUNS_OPTION, command_options=("--pre",)),  # `rg --pre CMD`: a preprocessor per file
    _p("bat", R.RUNS_OPTION, command_options=("--pager",)),  # `bat --pager CMD`: the pager it runs
    _p(
        "sed", R.READS, R.TEXT_ONLY, R.FILTER, R.RUNS_OPTION, R.SCRIPT_FIRST, files=1, options=("-l",)
    ),  # `e`, `s///e`
    _p("fd", R.READS, R.RUNS_OPTION, aliases=("fdfind",)),  # `fd -x CMD`: a command per match
    _p("jq", R.READS, R.INSPECTS, files=1),
    _p("look", R.READS, R.INSPECTS, files=1),
    _p("cut", R.READS, R.TEXT_ONLY, R.FILTER, R.INSPECTS, files=0, options=("-d", "-f", "-b", "-c")),
    _p(
        "sort",
        R.READS,
        R.INSPECTS,
        R.TEXT_ONLY,
        R.FILTER,
        files=0,
        options=("-k", "-t", "-o", "--output"),
        output_options=("-o", "--output"),
    ),
    _p("uniq", R.READS, R.TEXT_ONLY, R.FILTER, R.INSPECTS, files=0),
    _p("wc", R.READS, R.TEXT_ONLY, R.FILTER, R.INSPECTS, files=0),
    _p("tr", R.TEXT_ONLY, R.FILTER, R.INSPECTS),
    _p("base64", R.READS, R.DECODER, files=0),
    _p("base32", R.DECODER, aliases=("basenc", "rev")),
    _p("split", R.READS, files=0, options=("-l", "-b", "-n")),
    _p("od", R.READS, files=0, options=("-t", "-N", "-j", "-A")),
    _p("du", R.READS, files=0, options=("-d", "--max-depth")),
    _p("ls", R.READS, files=0, options=("-I", "--ignore", "-w")),
    _p("xxd", R.READS, R.DECODER, files=0, options=("-l", "-s", "-c", "-g"), output_operand=1),
    _p("rm", R.WRITES, R.DELETES, files=0),
    _p("unlink", R.WRITES, R.DELETES, files=0),
    _p("srm", R.WRITES, R.DELETES, R.WIPES, files=0),
    _p("wipe", R.WRITES, R.DELETES, R.WIPES, files=0),
    _p("shred", R.WRITES, R.DELETES, R.WIPES, files=0, options=("-n", "-s", "--iterations")),
    _p("rimraf", R.WRITES, R.DELETES, R.RECURSIVE, files=0, aliases=("del-cli",)),
    _p("rmdir", R.WRITES, R.METADATA, files=0),  # removes only empty directories
    _p("touch", R.WRITES, R.METADATA, files=0, options=("-t", "-d", "-r", "--date", "--reference")),
    _p("mkdir", R.WRITES, R.METADATA, files=0),
    _p("chmod", R.WRITES, R.METADATA, files=1, aliases=("chown", "chgrp", "chattr")),
    _p("mv", R.WRITES, files=0),
    _p("tee", R.WRITES, files=0),
    _p("truncate", R.WRITES, files=0, options=("-s", "--size")),
    _p("cp", R.READS, R.COPIES, files=0, aliases=("install", "ln")),
    # ------------------------------------------------------------------ text
    *(
        _p(name, R.TEXT_ONLY, R.INSPECTS)
        for name in ("echo", "printf", "true", "false", ":", "test", "[", "[[", "basename", "dirname")
    ),
    *(_p(name, R.TEXT_ONLY) for name in ("read", "alias", "help", "whatis", "apropos", "yes")),
    # the machine's state printed: load, disks, memory, processes, sessions, identity, block devices; and
    # `show`, a network device's read command (`ssh router 'show bgp summary'`)
    *(
        _p(name, R.TEXT_ONLY, R.INSPECTS)
        for name in (
            *("uptime", "df", "free", "ps", "who", "w", "id", "whoami", "uname", "lsblk", "vmstat", "iostat"),
            *("nproc", "show"),
        )
    ),
    # the journal read (not vacuumed, rotated or flushed)
    _p("journalctl", R.READS, inspects=r"^(?!.*--(?:vacuum|rotate|flush|sync|relinquish|setup-keys))"),
    _p("which", R.TEXT_ONLY, R.LOCATES_PROGRAM, R.INSPECTS, aliases=("type", "whereis")),
    _p("pgrep", R.TEXT_ONLY, R.FINDS_PROCESSES, R.INSPECTS, aliases=("pidof",)),
    _p("export", R.TEXT_ONLY, R.ENV_SETTER, aliases=("declare", "local")),
    # ------------------------------------------------------------------ network
    _p("curl", R.SENDS, R.DOWNLOADS, options=_CURL_OPTS, output_options=("-o", "--output")),
    # curl's request signed with the AWS credentials (`awscurl --service healthlake URL`)
    _p("awscurl", R.SENDS, R.DOWNLOADS, options=_AWSCURL_OPTS),
    # (`--use-askpass=CMD`: the program it asks for a password, run)
    _p(
        "wget",
        R.SENDS,
        R.DOWNLOADS,
        R.RUNS_OPTION,
        options=_WGET_OPTS,
        command_options=("--use-askpass",),
        output_options=("-O", "--output-document"),
    ),
    # Google Drive's and shared links' downloaders: what they fetch is a stranger's file like any download
    _p("gdown", R.DOWNLOADS, options=("-O", "--output", "--id"), output_options=("-O", "--output")),
    # image and file-sync tools: what they push goes to the registry or remote their last operand names
    _p("oras", R.SENDS, R.DOWNLOADS, pushes=("push", "attach", "copy", "cp"), push_target="image"),
    _p("skopeo", R.SENDS, R.DOWNLOADS, pushes=("copy", "sync"), push_target="image"),
    # HPC's container runtime: pulls and runs images (`docker://`, `oras://`, `library://`); `push` sends
    _p(
        "apptainer",
        R.DOWNLOADS,
        aliases=("singularity",),
        pushes=("push",),
        push_target="image",
        registry="docker",
        installs=("pull",),
        runs_package=("run", "exec", "shell", "instance start"),
        options=("-B", "--bind", "--mount", "--home", "-H", "--env", "--env-file", "--overlay", "-o"),
        mounts=("-B", "--bind", "--mount"),
    ),
    _p("crane", R.SENDS, R.DOWNLOADS, pushes=("push", "copy", "cp", "append", "mutate"), push_target="image"),
    _p(
        "rclone",
        R.SENDS,
        R.DOWNLOADS,
        R.INFRA_DESTROYER,
        options=(
            *("--transfers", "--checkers", "--bwlimit", "--config", "--include", "--exclude", "--filter"),
            *("--filter-from", "--include-from", "--exclude-from", "--max-age", "--min-age", "--max-size"),
            *("--min-size", "--log-file", "--log-level", "--backup-dir", "--suffix", "--max-transfer"),
            *(
                "--retries",
                "--low-level-retries",
                "--stats",
                "--order-by",
                "--max-depth",
                "--multi-thread-streams",
            ),
        ),
        pushes=("copy", "copyto", "sync", "move", "moveto", "bisync", "rcat", "copyurl"),
        push_target="remote",
        # a remote's path and everything in it purged; files or empty folders deleted
        destroys_all=rf"{_W}purge{_E}",
        destroys_one=rf"{_W}(?:delete|deletefile|rmdir|rmdirs|cleanup){_E}",
    ),
    _p("http", R.SENDS, R.DOWNLOADS, aliases=(*sorted(HTTPIE_NAMES - {"http"}), "curlie")),
    _p("fetch", R.DOWNLOADS, aliases=("aria2c", "lwp-request", "GET", "tftp")),
    _p("nc", R.SENDS, R.DOWNLOADS, R.NETWORK, aliases=("ncat", "netcat"), options=_NC_OPTS),
    _p("socat", R.SENDS, R.DOWNLOADS, R.NETWORK),
    _p(
        "openssl",
        R.SENDS,
        R.DOWNLOADS,
        R.NETWORK,
        R.DECODER,
        R.LOADS_CODE,
        loads_library=r"SO_PATH:|(?:^|\s)-(?:engine|provider-path|provider)\s+\S*/",
        output_options=("-out", "-keyout"),
    ),
    # GnuPG writes what it makes (a dearmored key, a signature, a decrypted file) where `-o` says: a keyring
    # file under /etc/apt/trusted.gpg.d/ is a key every package of the machine is then trusted by
    _p(
        "gpg",
        R.READS,
        options=("-o", "--output", "-u", "--local-user", "-r", "--recipient", "--keyring", "--homedir"),
        output_options=("-o", "--output"),
        aliases=("gpg2", "gpgv"),
        verifies=r"--verify|^(?!.*--(?:sign|encrypt|decrypt|import|export))\S+\.(?:asc|sig|gpg)(?:\s|$)",
    ),
    # checksums checked against a list, signatures and provenance checked by their tools
    _p("cosign", R.READS, verifies=rf"{_W}verify(?:-blob|-attestation)?{_E}"),
    _p("minisign", R.READS, verifies=rf"{_W}-V{_E}"),
    _p("signify", R.READS, verifies=rf"{_W}-C{_E}|{_W}-V{_E}"),
    _p("slsa-verifier", R.READS, verifies=rf"{_W}verify-\w+{_E}"),
    # PKCS#11 providers: a shared library the ssh tools load and run
    _p("ssh-keygen", R.LOADS_CODE, loads_library=r"(?:^|\s)-D\s*\S"),
    _p("ssh-add", R.LOADS_CODE, loads_library=r"(?:^|\s)-[sSe]\s*\S"),
    _p("telnet", R.SENDS, R.DOWNLOADS, R.NETWORK, options=_TELNET_OPTS),
    _p("ztcp", R.SENDS, R.NETWORK, options=_ZTCP_OPTS),
    _p("rcat", R.NETWORK, R.REMOTE_SHELL, aliases=("cryptcat", "sbd")),
    # a telnet server: logins (or, with `-l /bin/sh`, a shell with none) served in plain text to the network
    _p("telnetd", R.NETWORK, R.REMOTE_SHELL, aliases=("utelnetd", "in.telnetd")),
    # tunnels: a local port (a shell's, a debugger's, a dev server's) put on the internet
    _p("ngrok", R.TUNNEL, R.NETWORK, exposes=rf"{_W}(?:http|https|tcp|tls|start|tunnel){_E}"),
    _p(
        "cloudflared",
        R.TUNNEL,
        R.NETWORK,
        # (`tunnel list`, `info`, `login`, `create`, `route`: the account's tunnels managed, nothing served)
        exposes=rf"{_W}tunnel{_E}(?!\s+(?:list|info|login|create|delete|cleanup|route|token|vnet){_E})",
    ),
    _p("localtunnel", R.TUNNEL, R.NETWORK, aliases=("lt", "frpc", "telebit", "pgrok")),
    _p("bore", R.TUNNEL, R.NETWORK, exposes=rf"{_W}local{_E}"),
    _p("zrok", R.TUNNEL, R.NETWORK, exposes=rf"{_W}share{_E}"),
    # a login service or a shell served on a socket, started by hand: this machine opened to whoever connects
    _p("sshd", R.TUNNEL, R.NETWORK, aliases=("dropbear",), exposes=rf"{_W}-[pDdfo]|{_W}-\w*[pDd]\w*{_E}"),
    _p("websocat", R.TUNNEL, R.NETWORK, exposes=rf"{_W}(?:-e|--exec|-s|--server-mode){_E}|{_W}ws-l:"),
    _p("tailscale", R.TUNNEL, exposes=rf"{_W}funnel{_E}"),
    _p("loophole", R.TUNNEL, R.NETWORK, exposes=rf"{_W}(?:http|https|path){_E}"),
    _p("chisel", R.TUNNEL, R.NETWORK, exposes=rf"{_W}(?:client|server){_E}"),
    # peer-to-peer senders: `wormhole send FILE`, `croc send FILE` (their relays: the shell's publishers)
    _p("wormhole", R.SENDS, R.READS, aliases=("croc",), files=1),
    _p("pastebinit", R.SENDS, R.READS, files=0),  # the paste service it posts to is `normalize.shell`'s
    # its `-e`/`-c` commands act on the server: `rm -r`, `mrm`, `rmdir` delete there
    _p(
        "lftp",
        R.SENDS,
        R.DOWNLOADS,
        R.NETWORK,
        R.INFRA_DESTROYER,
        options=("-e", "-u", "-p", "-c", "-f"),
        destroys_one=rf"{_W}-[ec]\s+(?:[^;\n]*;\s*){{0,16}}(?:rm|mrm|rmdir|glob\s+rm){_E}",
    ),
    _p("devtunnel", R.TUNNEL, R.NETWORK, exposes=rf"{_W}host{_E}"),
    # web and shared terminals: a shell on this machine handed to whoever opens the link or the port
    _p("tmate", R.TUNNEL, R.NETWORK, aliases=("ttyd", "gotty", "sshx", "upterm", "wetty")),
    _p("code", R.TUNNEL, exposes=rf"{_W}tunnel{_E}", aliases=("code-insiders",)),  # VS Code's remote tunnel
    # whole-network tunnels: every connection of the machine, or DNS, carried to someone else's end
    _p("sshuttle", R.TUNNEL, R.NETWORK),
    _p("autossh", R.TUNNEL, R.NETWORK),
    _p("iodine", R.TUNNEL, R.NETWORK, aliases=("iodined", "dnscat", "dnscat2", "dns2tcp")),
    # coding agents' CLIs: the sub-commands that rewrite their settings (hooks, MCP servers, permissions)
    _p(
        "claude",
        R.AGENT,
        disables=rf"{_W}--dangerously-skip-permissions{_E}|{_W}--permission-mode(?:=|\s+)bypassPermissions{_E}"
        r"|disableAllHooks[\"']?\s*:\s*true",  # `--settings JSON` that turns hooks off
        changes_settings=rf"{_W}(?:config\s+(?:set|add|remove|rm)|mcp\s+(?:add|add-json|add-from-claude-desktop|remove))"
        rf"{_E}",
        settings_files=(
            "~/.claude.json",
            "~/.claude/settings.json",
            ".claude/settings.local.json",
            ".mcp.json",
        ),
    ),
    _p(
        "gemini",
        R.AGENT,
        disables=rf"{_W}(?:--yolo|-y){_E}|{_W}--approval-mode(?:=|\s+)yolo{_E}",
        changes_settings=rf"{_W}(?:mcp\s+(?:add|remove)|extensions\s+(?:install|uninstall|link|update|enable|disable)){_E}",
        settings_files=("~/.gemini/settings.json", ".gemini/settings.json"),
    ),
    _p(
        "codex",
        R.AGENT,
        disables=rf"{_W}--dangerously-bypass-approvals-and-sandbox{_E}|{_W}--yolo{_E}"
        rf"|{_W}(?:-s|--sandbox)(?:=|\s+)danger-full-access{_E}",
        changes_settings=rf"{_W}mcp\s+(?:add|remove){_E}",
        settings_files=("~/.codex/config.toml",),
    ),
    _p("ftp", R.SENDS, R.DOWNLOADS, options=_FTP_OPTS),
    # file-transfer and query clients that reach the host their operand or `-h` names
    _p("tftp", R.SENDS, R.DOWNLOADS, options=("-c", "-m", "-p", "-l", "-r", "-R")),
    _p(
        "smbclient",
        R.SENDS,
        R.DOWNLOADS,
        options=("-U", "-W", "-c", "-p", "-I", "-A", "-D", "-m", "-n", "-s"),
    ),
    _p("whois", R.SENDS, options=("-h", "-p", "-s", "-t", "-T", "-i")),
    # syslog's client: with `-n`/`--server` its message (its words, a file's lines with `-f`, or standard
    # input) goes to that host's log server; without, to this machine's journal
    _p(
        "logger",
        R.SENDS,
        options=("-n", "--server", "-P", "--port", "-t", "--tag", "-p", "--priority", "-f", "--file", "-S"),
        host_options=("-n", "--server"),
    ),
    # MQTT clients: a message (`-m`, a file's text with `-f`, standard input with `-s`/`-l`) published to the
    # broker `-h`/`--host` or the `-L` URL names (mosquitto's, and its request-response client)
    *(
        _p(
            name,
            R.SENDS,
            R.READS,
            options=(
                *("-h", "--host", "-p", "--port", "-t", "--topic", "-m", "--message", "-f", "--file", "-u"),
                *("--username", "-P", "--pw", "-i", "--id", "-q", "--qos", "--cafile", "--capath", "--cert"),
                *("--key", "-L", "--url", "-k", "--keepalive", "-e", "-x", "--will-topic", "--will-payload"),
            ),
            host_options=("-h", "--host", "-L", "--url"),
        )
        for name in ("mosquitto_pub", "mosquitto_rr")
    ),
    # DICOM senders: images, and the patient data their headers carry, stored on the archive (PACS) named by
    # DCMTK's `PEER PORT` operands or dcm4che's `-c AET@HOST:PORT`
    *(
        _p(
            name,
            R.SENDS,
            R.READS,
            options=("-c", "--connect", "-aet", "-aec", "-b", "--bind", "-to", "-ta", "-td", "--proxy"),
            host_options=("-c", "--connect"),
            host_operand=0,
            files=2,
        )
        for name in ("storescu", "dcmsend", "stgcmtscu")
    ),
    # NAPALM's command line: a configuration file pushed to (or a getter called on) the device its first
    # operand names (`napalm --vendor iosxr HOST configure FILE --strategy replace`)
    _p(
        "napalm",
        R.SENDS,
        R.READS,
        options=("--user", "-u", "--password", "-p", "--vendor", "-v", "--optional_args", "-o", "--strategy"),
        host_operand=0,
        files=2,
    ),
    _p("scp", R.SENDS, R.DOWNLOADS, R.RUNS_OPTION, options=_SCP_OPTS, command_options=("-S",)),
    _p("sftp", R.SENDS, R.DOWNLOADS, R.RUNS_OPTION, options=_SFTP_OPTS, command_options=("-S",)),
    _p(  # `-o ProxyCommand=CMD`
        "ssh",
        R.SENDS,
        R.DOWNLOADS,
        R.REMOTE_LOGIN,
        R.RUNS_OPTION,
        R.LOADS_CODE,
        options=_SSH_OPTS,
        loads_library=r"(?:^|\s)-I\s*\S|PKCS11Provider=|SecurityKeyProvider=",
    ),
    # a public key installed in a server's authorized_keys: one from outside the user's own ~/.ssh is someone
    # else's login there
    _p(
        "ssh-copy-id",
        R.SENDS,
        options=("-i", "-p", "-o", "-t", "-F", "-J"),
        grants=r"(?:^|\s)-i\s*(?!(?:~|\$HOME|\$\{HOME\}|/root|/home/[^/\s]+|/Users/[^/\s]+)/\.ssh/)\S",
    ),
    _p("mail", R.SENDS, R.MAILS, aliases=("sendmail", "mutt", "mailx", "swaks", "msmtp", "neomutt")),
    _p("dig", R.DNS, aliases=("drill",), options=_DIG_OPTS),
    _p("nslookup", R.DNS, options=_NSLOOKUP_OPTS),
    _p("host", R.DNS, options=_HOST_OPTS),
    _p("ping", R.DNS, aliases=("ping6", "traceroute", "traceroute6", "tracepath", "mtr")),
    _p(
        "msfvenom",
        R.REMOTE_SHELL,
        aliases=("msfconsole", "msfpc", "powercat", "pwncat", "pwncat-cs", "weevely", "hoaxshell", "villain"),
    ),
    # ------------------------------------------------------------------ infrastructure and databases
    _p(
        "terraform",
        R.INFRA_DESTROYER,
        aliases=("tofu", "terragrunt"),
        # a destroy narrowed to one resource (`-target=module.preview`) deletes that resource
        destroys_all=rf"(?!.*-target)(?:.*{_W}destroy{_E}|.*{_W}apply{_E}.*{_W}-{{1,2}}destroy{_E})",
        destroys_one=rf"{_W}state\s+rm{_E}|{_W}workspace\s+delete{_E}|{_W}destroy{_E}"
        # `-replace=aws_db_instance.main`: the resource is destroyed, then made again empty
        rf"|{_W}apply{_E}.*{_W}-{{1,2}}destroy{_E}|{_W}apply{_E}.*{_W}-{{1,2}}replace[=\s]\S",
        changes=rf"{_W}(?:apply|destroy|import|taint|untaint|state\s+(?:push|rm|mv|replace-provider)){_E}",
    ),
    # dbt: runs the project's models, seeds and macros as SQL in the warehouse its `--target` names; a full
    # refresh of a production target rebuilds incremental models from what the sources still hold
    _p(
        "dbt",
        R.INFRA_DESTROYER,
        options=("-t", "--target", "-s", "--select", "--exclude", "--profiles-dir", "--project-dir"),
        destroys_one=rf"(?=.*{_W}--full-refresh{_E})(?=.*{_W}(?:-t|--target)[=\s]+\S*(?:prod|production|prd))",
        changes=rf"{_W}(?:run|build|seed|snapshot|run-operation){_E}",
    ),
    _p(
        "pulumi",
        R.INFRA_DESTROYER,
        destroys_all=rf"{_W}destroy{_E}|{_W}stack\s+rm{_E}",
        changes=rf"{_W}(?:up|update|destroy|import|refresh|state\s+delete){_E}",
    ),
    _p(
        "cdk",
        R.INFRA_DESTROYER,
        aliases=("cdktf",),
        destroys_all=rf"{_W}destroy{_E}",
        changes=rf"{_W}(?:deploy|destroy|bootstrap){_E}",
    ),
    # ORMs' and migration tools' CLIs: a database dropped or every migration undone
    _p(
        "sequelize",
        R.INFRA_DESTROYER,
        aliases=("sequelize-cli",),
        destroys_one=rf"{_W}db:drop{_E}|{_W}db:migrate:undo:all{_E}",
        changes=rf"{_W}db:(?:migrate|seed|drop)\S*{_E}",
    ),
    _p(
        "knex",
        R.INFRA_DESTROYER,
        destroys_one=rf"{_W}migrate:rollback{_E}.*{_W}--all{_E}",
        changes=rf"{_W}(?:migrate:(?:latest|up|down|rollback)|seed:run){_E}",
    ),
    _p(
        "typeorm",
        R.INFRA_DESTROYER,
        destroys_one=rf"{_W}schema:drop{_E}",
        changes=rf"{_W}(?:migration:(?:run|revert)|schema:(?:sync|drop)){_E}",
    ),
    _p(
        "serverless",
        R.INFRA_DESTROYER,
        aliases=("sls",),
        destroys_all=rf"{_W}remove{_E}",
        changes=rf"{_W}(?:deploy|remove|rollback){_E}",
    ),
    _p(
        "vercel",
        R.INFRA_DESTROYER,
        deploys_to=("*.vercel.app",),
        # a project or a production deployment removed (an environment variable removed is a change; a
        # preview deployment, named by its generated address, is rebuilt from its commit)
        destroys_one=rf"(?<!env\s)(?<!dns\s)(?<!domains\s)(?<!alias\s){_W}(?:remove|rm){_E}"
        rf"(?!\s+(?:--\S+\s+)*\S+-[a-z0-9]{{9}}-[\w-]+\.vercel\.app{_E})",
        changes=rf"{_W}(?:deploy|--prod|promote|rollback|remove|rm|env\s+(?:add|rm)){_E}",
        # (a deployment promoted to, or rolled back on, the production domains)
        live=rf"{_W}(?:dns\s+(?:add|rm|remove|import)|domains\s+(?:add|move|transfer-in|rm|remove|buy)"
        rf"|alias(?:\s+set)?\s+\S+\s+\S+|alias\s+(?:rm|remove)|promote|rollback){_E}",
    ),
    _p(
        "netlify",
        R.INFRA_DESTROYER,
        aliases=("ntl",),
        deploys_to=("*.netlify.app",),
        options=(
            "--dir",
            "-d",
            "--site",
            "-s",
            "--context",
            "--message",
            "-m",
            "--alias",
            "--auth",
            "--data",
        ),
        # the site removed, through its own command or the API operation the CLI calls (`netlify api OP`)
        destroys_all=rf"{_W}(?:sites:delete|api\s+deleteSite){_E}",
        # a blob, a deploy, a hook, a key: removed through any API operation named for it (a variable unset
        # is a change: its value is the user's to set again)
        destroys_one=rf"{_W}(?:blobs:delete|api\s+(?:delete|remove|purge)[A-Z]\w*){_E}",
        # someone added to the team or given a role in it
        grants=rf"{_W}api\s+(?:add|create|update)\w*Member\w*{_E}",
        setting_pairs=("env:set",),
        changes=rf"{_W}(?:deploy|env:(?:set|unset|import|clone)|sites:delete|blobs:(?:set|delete)"
        rf"|api\s+(?:create|update|delete|add|remove|restore|purge|cancel|lock|unlock|rollback)[A-Z]\w*){_E}",
    ),
    # Neon's CLI: a project or its main branch deleted or reset, the database opened to every address
    _p(
        "neonctl",
        R.INFRA_DESTROYER,
        aliases=("neon",),
        options=("--project-id", "--org-id", "--output", "-o", "--api-key", "--context-file", "--parent"),
        destroys_all=rf"{_W}projects?\s+delete{_E}",
        destroys_one=rf"{_W}branch(?:es)?\s+(?:delete|reset|restore)\s+{MAIN_BRANCHES}{_E}",
        grants=rf"{_W}ip-allow\s+(?:add|reset){_E}.*(?:0\.0\.0\.0/0|::/0)",
        changes=rf"{_W}(?:projects?\s+delete|branch(?:es)?\s+(?:delete|reset|restore|set-default)|ip-allow"
        rf"|roles?\s+delete|databases?\s+delete){_E}",
    ),
    # PlanetScale's CLI: a database or its production branch deleted, that branch's protections taken off
    # (unsafe schema changes let through, the branch made a development one), a member or a token let in
    _p(
        "pscale",
        R.INFRA_DESTROYER,
        options=("--org", "--format", "-f", "--service-token", "--service-token-id", "--from", "--region"),
        destroys_all=rf"{_W}database\s+delete{_E}",
        destroys_one=rf"{_W}(?:branch\s+delete\s+\S+\s+{MAIN_BRANCHES}|backup\s+delete){_E}",
        disables=rf"{_W}branch\s+(?:safe-migrations\s+disable|demote){_E}",
        grants=rf"{_W}(?:org\s+(?:invite|member\s+add)|service-token\s+add-access){_E}",
        changes=rf"{_W}(?:deploy-request\s+(?:deploy|apply|revert|skip-revert)|branch\s+(?:promote|demote"
        rf"|safe-migrations)|database\s+delete|branch\s+delete|shell){_E}",
    ),
    _p(
        "supabase",
        R.INFRA_DESTROYER,
        destroys_all=rf"{_W}db\s+reset{_E}.*{_W}--linked{_E}|{_W}projects\s+delete{_E}"
        # a bucket of the linked project emptied (`supabase storage rm -r ss:///invoices --linked`)
        rf"|{_W}storage\s+rm{_E}(?=.*{_W}(?:-r|--recursive){_E})(?=.*{_W}--linked{_E})",
        # (and the client library's deletes, which no command spells: a bucket emptied or deleted, an account)
        destroys_one=rf"{_W}storage\s+rm{_E}(?=.*{_W}--linked{_E})|{_W}(?:delete|empty)\s+(?:bucket|users?){_E}",
        # the database opened to every address, its connections let go unencrypted
        grants=rf"{_W}network-restrictions\s+update{_E}.*--db-allow-cidr[=\s]+['\"]?(?:0\.0\.0\.0/0|::/0)",
        # (and a function deployed to take calls with no signed-in user's token: a webhook checks its
        # sender's signature itself: `functions deploy stripe-webhook --no-verify-jwt` is the documented way)
        disables=rf"{_W}ssl-enforcement\s+update{_E}.*--disable-db-ssl-enforcement{_E}"
        rf"|{_W}functions\s+deploy\s+(?![\w-]*(?:webhook|callback|hook))[\w-]+.*{_W}--no-verify-jwt{_E}",
        changes=rf"{_W}(?:db\s+(?:push|reset)|functions\s+(?:deploy|delete)|secrets\s+(?:set|unset)|projects\s+delete"
        rf"|network-restrictions\s+update|ssl-enforcement\s+update){_E}",
    ),
    # backup tools: what they forget, prune or delete is what there was to recover from; a key added is a
    # way in to every snapshot, a key changed or removed locks the owners out, versions and retention
    # switched off leave the next delete final
    _p(
        "restic",
        R.INFRA_DESTROYER,
        options=("-r", "--repo", "-p", "--password-file", "--password-command", "--cache-dir"),
        # snapshots kept down to the last one or to an hour's, or forgotten by their ids
        destroys_all=rf"{_W}forget{_E}.*{_W}--keep-(?:last|within)(?:=|\s+)(?:[01]|\d+[hm]){_E}",
        # (or forgotten by ids: any forget without a policy of what to keep)
        destroys_one=rf"{_W}forget{_E}(?!.*--keep-)|{_W}key\s+(?:remove|rm|passwd){_E}",
        grants=rf"{_W}key\s+add{_E}",
    ),
    # C and C++'s package manager: its local cache is fetched again (`conan remove` without a remote); a
    # remote's packages removed, TLS checks of a remote switched off, configuration (remotes, hooks that run
    # in every build) installed from an address
    _p(
        "conan",
        R.INFRA_DESTROYER,
        destroys_one=rf"{_W}remove{_E}(?=.*{_W}(?:-r|--remote)(?:=|\s|{_E}))",
        disables=rf"{_W}remote\s+(?:add|update){_E}.*{_W}--insecure{_E}",
        fetches_code=rf"{_W}config\s+install\s+(?:\S*://|git@)",
    ),
    # PostgreSQL's write-ahead log reset: transactions not yet in the tables are lost (`-n` only shows)
    _p(
        "pg_resetwal",
        R.INFRA_DESTROYER,
        aliases=("pg_resetxlog",),
        destroys_one=rf"^(?!.*{_W}(?:-n|--dry-run){_E})",
    ),
    _p(
        "borg",
        R.INFRA_DESTROYER,
        aliases=("borgbackup",),
        # a repository deleted whole (no `::archive` named), or pruned down to the last archive or an hour's
        destroys_all=rf"{_W}delete{_E}(?!.*::)|{_W}prune{_E}.*{_W}--keep-(?:last|within)(?:=|\s+)(?:[01]|\d+[Hhm]){_E}",
        destroys_one=rf"{_W}delete{_E}",
        grants=rf"{_W}key\s+(?:change-passphrase|import){_E}",
    ),
    _p(
        "mc",
        R.INFRA_DESTROYER,
        destroys_all=rf"{_W}rb{_E}|{_W}rm{_E}.*{_W}(?:--recursive|-r){_E}.*{_W}--force{_E}"
        rf"|{_W}rm{_E}.*{_W}--force{_E}.*{_W}(?:--recursive|-r){_E}",
        destroys_one=rf"{_W}rm{_E}",
        disables=rf"{_W}(?:retention|legalhold|encrypt)\s+clear{_E}|{_W}version\s+suspend{_E}",
        grants=rf"{_W}admin\s+(?:user\s+add|policy\s+attach){_E}|{_W}anonymous\s+set\s+(?:public|download|upload){_E}",
    ),
    _p(
        "etcdctl",
        R.INFRA_DESTROYER,
        destroys_all=rf"{_W}del{_E}.*{_W}--prefix{_E}",
        destroys_one=rf"{_W}del{_E}",
    ),
    _p(
        "consul",
        R.INFRA_DESTROYER,
        # everything replaced by a snapshot's state
        destroys_all=rf"{_W}kv\s+delete{_E}.*{_W}-recurse{_E}|{_W}snapshot\s+restore{_E}",
        # (a server taken out of the raft quorum: two of three gone and the cluster stops accepting writes)
        destroys_one=rf"{_W}(?:kv|acl\s+(?:token|policy|role)|intention|config|services)\s+(?:delete|deregister)"
        rf"{_E}|{_W}operator\s+raft\s+remove-peer{_E}",
        # a token or policy with every right, every service let talk to every other
        grants=rf"{_W}acl\s+(?:token|role)\s+(?:create|update){_E}.*global-management"
        rf"|{_W}intention\s+create{_E}(?=.*{_W}-allow{_E}).*{_W}[\"']?\*[\"']?\s+[\"']?\*[\"']?(?:{_E}|$)"
        rf"|{_W}acl\s+policy\s+(?:create|update){_E}.*(?:acl|operator)\s*=\s*[\"']?write",
        # the service mesh's certificate authority replaced
        disables=rf"{_W}connect\s+ca\s+set-config{_E}",
        changes=rf"{_W}(?:kv\s+(?:put|delete|import)|services\s+(?:register|deregister)|intention|acl|connect\s+ca"
        rf"|config\s+(?:write|delete)|snapshot\s+restore|operator|force-leave|leave){_E}",
    ),
    _p(
        "nomad",
        R.INFRA_DESTROYER,
        destroys_all=rf"{_W}namespace\s+delete{_E}|{_W}system\s+gc{_E}",
        # a job stopped or scaled to nothing, a node drained: an outage, however reversible
        destroys_one=rf"{_W}job\s+(?:stop|scale{_E}.*\s0){_E}|{_W}node\s+drain{_E}.*-enable"
        rf"|{_W}(?:var\s+purge|volume\s+delete|deployment\s+fail|alloc\s+stop|operator\s+raft\s+remove-peer){_E}",
        grants=rf"{_W}acl\s+token\s+create{_E}.*-type[=\s]+management"
        rf"|{_W}acl\s+policy\s+apply{_E}.*{_W}anonymous{_E}",
        # the cluster's policy checks overridden for a job
        disables=rf"{_W}job\s+run{_E}.*-policy-override{_E}",
        changes=rf"{_W}(?:job\s+(?:run|stop|revert|scale|dispatch|promote|periodic\s+force|plan\s+-apply)"
        rf"|node\s+(?:drain|eligibility)|namespace\s+(?:apply|delete)|acl|var\s+(?:put|purge)|volume"
        rf"|operator|alloc\s+(?:exec|restart|stop|signal)|deployment\s+(?:fail|promote|pause)){_E}",
    ),
    # LuaRocks: a rock built from a rockspec at an address (its build commands run), another rock server
    _p(
        "luarocks",
        R.PACKAGE_INSTALLER,
        fetches_code=rf"{_W}(?:install|make|build|download)\s+(?:-\S+\s+)*[\"']?https?://",
        reroutes=rf"{_W}(?:--server|--only-server){_E}|{_W}config\s+rocks_servers\s+[^\s-]",
    ),
    # Kong: its database reset (every service, route, consumer and credential), its declarative state
    # replaced by an empty one
    _p(
        "kong",
        R.INFRA_DESTROYER,
        destroys_all=rf"{_W}migrations\s+reset{_E}",
        changes=rf"{_W}(?:migrations\s+(?:up|finish|reset|bootstrap)|config\s+db_import){_E}",
    ),
    _p(
        "nats",
        R.INFRA_DESTROYER,
        # a stream or a key-value bucket with everything in it (`$JS.API.STREAM.DELETE.X` is the same call)
        destroys_all=rf"{_W}(?:stream|str)\s+(?:rm|delete|purge){_E}|{_W}kv\s+(?:rm|del)\s+\S+\s+-f{_E}"
        rf"|\$JS\.API\.STREAM\.(?:DELETE|PURGE)\.",
        destroys_one=rf"{_W}(?:consumer|con|kv|object|obj)\s+(?:rm|del|delete|purge){_E}"
        rf"|{_W}stream\s+(?:rmm|edit{_E}.*--max-(?:age|msgs|bytes)){_E}",
        changes=rf"{_W}(?:stream|str|consumer|con|kv|object|obj)\s+(?:add|edit|rm|del|delete|purge|put|rmm|restore)"
        rf"{_E}|{_W}(?:pub|req|request){_E}",
    ),
    _p(
        "buf",
        R.INFRA_DESTROYER,
        destroys_one=rf"{_W}registry\s+(?:module|repository|organization|plugin)\s+delete{_E}",
        changes=rf"{_W}(?:push|registry\s+\S+\s+(?:create|delete|update|deprecate)){_E}",
    ),
    _p(
        "kcadm.sh",
        R.INFRA_DESTROYER,
        aliases=("kcadm",),  # Keycloak's admin CLI: its settings (`-s k=v`) judged by the table of controls
        destroys_one=rf"{_W}delete{_E}",
        grants=rf"{_W}add-roles{_E}.*--rolename[=\s]+(?:admin|realm-admin|manage-\S+)(?:{_E}|$)",
        changes=rf"{_W}(?:create|update|delete|add-roles|remove-roles|set-password|config){_E}",
    ),
    _p(
        "bq",
        R.INFRA_DESTROYER,
        destroys_all=rf"{_W}rm{_E}.*{_W}(?:-r|--recursive){_E}",
        destroys_one=rf"{_W}rm{_E}",
        # a dataset or table shared with everyone on the internet, or an owner's role handed out
        grants=rf"{_W}add-iam-policy-binding{_E}.*--member[=\s]+[\"']?(?:allUsers|allAuthenticatedUsers)"
        rf"|{_W}add-iam-policy-binding{_E}.*--role[=\s]+roles/(?:owner|editor|bigquery\.(?:admin|dataOwner))",
    ),
    _p(
        "kubectl",
        R.INFRA_DESTROYER,
        aliases=("oc", "kubernetes", "k8s"),  # the last two: the names MCP servers for it go by
        # (global options that name no file: `kubectl -n prod run ...` runs `run`)
        options=(
            *("-n", "--namespace", "--context", "--cluster", "--user"),
            *("-l", "--selector", "-o", "--output"),
        ),
        schedules=rf"{_W}create\s+cronjob{_E}",
        destroys_all=rf"{_W}delete{_E}.*(?:{_W}--all(?:-namespaces)?{_E}|{_W}(?:ns|namespaces?)(?:{_E}|/))",
        # a workload scaled to nothing is an outage, however reversible
        # (pods and jobs are the run-to-completion pieces their controllers and CI make again)
        # (its options may come first: `delete -n staging --context c pod x`)
        destroys_one=rf"{_W}delete\s+(?:-(?:n|-namespace|-context|-cluster|-kubeconfig)(?:=|\s+)\S+\s+)*+"
        rf"(?!(?:pods?|po|jobs?(?:\.batch)?)(?:{_E}|/))\S|{_W}scale{_E}.*--replicas[=\s]0{_E}"
        # the same scaling as a patch (`{"spec":{"replicas":0}}`, `{"path":"/spec/replicas","value":0}`)
        rf"|{_W}patch{_E}.*(?:replicas[\"']?\s*:\s*0\b|/replicas[\"']?\s*,\s*[\"']value[\"']\s*:\s*0\b)"
        rf"|{_W}drain{_E}",
        # manifests fetched from an address and applied: whatever the page holds runs in the cluster
        fetches_code=rf"{_W}(?:apply|create|replace){_E}.*(?:\s-[fk]\s*|--(?:filename|kustomize)[=\s]+)https?://",
        # (`auth can-i create ...` asks whether one may; `rollout history` and `rollout status` read)
        changes=rf"^(?!.*{_W}auth\s+can-i{_E})(?:.*{_W}(?:apply|create|replace|patch|delete|scale|set|edit|label"
        rf"|annotate|exec|cp|drain|cordon|taint|run|expose|autoscale|rollout\s+(?:restart|undo|pause|resume)){_E})",
        # a namespace's pod security admission set to let privileged pods in; the cluster's certificate no
        # longer checked (`config set-cluster X --insecure-skip-tls-verify=true`): anyone may answer as it
        disables=rf"{_W}label{_E}.*pod-security\.kubernetes\.io/enforce=privileged{_E}"
        rf"|{_W}config\s+set-cluster{_E}.*--insecure-skip-tls-verify(?:=true)?{_E}",
        grants=rf"{_W}create\s+(?:cluster)?rolebinding{_E}.*--clusterrole[=\s]+(?:cluster-)?admin{_E}"
        # OpenShift's: an admin role or a privileged security context given, a user put in an admin group;
        # acting as the cluster's administrator (`--as=system:admin`)
        rf"|{_W}adm\s+policy\s+add-(?:cluster-)?role-to-(?:user|group){_E}\s+(?:cluster-)?admin{_E}"
        rf"|{_W}adm\s+policy\s+add-scc-to-(?:user|group){_E}\s+(?:privileged|anyuid|hostaccess|hostmount-anyuid"
        rf"|hostnetwork\S*|node-exporter){_E}"
        rf"|{_W}adm\s+groups\s+add-users\s+\S*admin\S*{_E}"
        rf"|{_W}--as(?:-group)?[=\s]+['\"]?system:(?:admin|masters){_E}"
        # a certificate signing request approved: a new identity the cluster will believe
        rf"|{_W}certificate\s+approve{_E}"
        # a service opened to the internet (`kubectl expose ... --type=LoadBalancer`)
        rf"|{_W}expose{_E}.*--type[=\s]+LoadBalancer{_E}"
        rf"|{_W}patch{_E}.*[\"']?type[\"']?\s*:\s*[\"']?LoadBalancer"
        # the cluster's API or a service served to the network (`kubectl proxy --address 0.0.0.0`)
        rf"|{_W}(?:proxy|port-forward){_E}.*--address[=\s]+['\"]?(?:[\w.:]+,)*(?:0\.0\.0\.0|::)['\"]?(?:{_E}|,|$)"
        # a workload given the host: privileged, the host's process, network or IPC namespace, its files
        rf"|{_W}(?:patch|set|edit){_E}.*(?:[\"']privileged[\"']\s*:\s*true|host(?:PID|Network|IPC)[\"']?\s*:\s*true"
        r"|hostPath)",
    ),
    _p(
        "eksctl",
        R.INFRA_DESTROYER,
        destroys_all=rf"{_W}delete\s+cluster{_E}",
        destroys_one=rf"{_W}delete{_E}",
        # cluster-admin given to an identity, the API endpoint opened to every address
        grants=rf"{_W}create\s+iamidentitymapping{_E}.*system:masters"
        rf"|{_W}utils\s+set-public-access-cidrs{_E}.*(?:0\.0\.0\.0/0|::/0)",
        # the control plane's audit and API logs turned off
        disables=rf"{_W}utils\s+update-cluster-logging{_E}.*--disable-types",
        changes=rf"{_W}(?:create|delete|upgrade|scale|update|set|utils|drain){_E}",
        options=("--cluster", "--name", "-n", "--region", "-r", "-f", "--config-file", "--profile"),
    ),
    # Alertmanager's CLI: a silence that matches every alert, or lasts for weeks, is alerting switched off
    _p(
        "amtool",
        R.NETWORK,  # it speaks to Alertmanager over HTTP
        disables=rf"{_W}silence\s+add{_E}.*(?:=~\s*['\"]?\.[*+]|--duration[=\s]+['\"]?(?:\d{{3,}}h|\d+[dwy]))",
    ),
    _p(
        "helm",
        R.INFRA_DESTROYER,
        destroys_one=rf"{_W}(?:uninstall|delete){_E}",
        fetches_code=rf"{_W}plugin\s+install{_E}",
        changes=rf"(?<!diff\s)(?<!template\s){_W}(?:install|upgrade|uninstall|delete|rollback){_E}",
    ),
    _p(
        "aws",
        R.INFRA_DESTROYER,
        R.SENDS,  # uploads to its store (`cp FILE s3://...`)
        options=(
            *("--profile", "--region", "--endpoint-url", "--output", "--query", "--acl", "--storage-class"),
            *("--exclude", "--include", "--sse", "--sse-kms-key-id", "--content-type", "--cache-control"),
            *("--metadata", "--expires", "--source-region", "--grants", "--page-size", "--ca-bundle"),
            *("--cli-read-timeout", "--cli-connect-timeout", "--color", "--expected-size"),
        ),
        destroys_all=rf"{_W}s3\s+rb{_E}|{_W}s3\s+rm{_E}.*{_W}--recursive{_E}"
        rf"|{_W}delete-(?:bucket|stack|db-cluster|table){_E}|{_W}delete-[\w-]+\s+--all{_E}",
        destroys_one=rf"{_W}s3\s+rm{_E}|{_W}(?:batch-)?(?:delete|terminate|remove|deregister|purge)-[\w-]+{_E}"
        rf"|{_W}schedule-key-deletion{_E}"
        rf"|{_W}put-bucket-lifecycle(?:-configuration)?{_E}.*Expiration",  # objects expired: deleted later
        store_service="s3",
        # the account's audit trail, threat detection or configuration recording stopped
        disables=rf"{_W}cloudtrail\s+(?:stop-logging|delete-trail){_E}"
        rf"|{_W}cloudtrail\s+put-event-selectors{_E}.*IncludeManagementEvents\W+false|{_W}guardduty\s+(?:delete-detector{_E}|"
        rf"update-detector{_E}.*--no-enable{_E})|{_W}configservice\s+(?:stop|delete)-configuration-recorder{_E}"
        rf"|{_W}securityhub\s+disable-security-hub{_E}|{_W}ec2\s+disable-ebs-encryption-by-default{_E}"
        # a web application firewall taken off what it guards (a load balancer, an API, a distribution)
        rf"|{_W}(?:wafv2\s+disassociate-web-acl|waf-regional\s+disassociate-web-acl){_E}"
        # a user's second factor taken away; the account's password rules weakened (short passwords, no
        # character classes, no expiry)
        rf"|{_W}iam\s+(?:deactivate-mfa-device|delete-virtual-mfa-device){_E}"
        rf"|{_W}iam\s+(?:update-account-password-policy{_E}.*(?:--minimum-password-length[=\s]+[0-7]{_E}"
        rf"|--no-require-\w+)|delete-account-password-policy{_E})"
        # a bucket's versioning suspended (overwrites can no longer be undone), audit logs kept for a day
        rf"|{_W}put-bucket-versioning{_E}.*Suspended|{_W}logs\s+(?:put-retention-policy|delete-log-group){_E}"
        r".*(?:cloudtrail|audit|flow-?logs?)"
        # an instance's metadata service answering without a session token again (IMDSv1: any SSRF reads
        # the instance's credentials)
        rf"|{_W}modify-instance-metadata-options{_E}.*--http-tokens[=\s]+optional{_E}",
        # (an inline policy, or a managed one's new default version, that allows every action or every
        # action of IAM itself: whoever holds it can give themselves anything)
        grants=rf"{_W}iam\s+(?:(?:attach|put)-(?:user|role|group)-policy|create-policy(?:-version)?){_E}"
        r".*(?:AdministratorAccess|IAMFullAccess|\"Action\"\s*:\s*(?:\[[^\]]*)?\"(?:\*|iam:\*)\")"
        # a policy that lets anyone in (a role anyone may assume, a bucket anyone may read)
        r"|\"Principal\"\s*:\s*(?:\"\*\"|\{\s*\"AWS\"\s*:\s*\"\*\")"
        # a bucket or object opened to everyone, its public-access block lifted, a port opened to the internet
        rf"|{_W}--acl[=\s]+public-read(?:-write)?{_E}|{_W}--grant-(?:read|write|full-control)[=\s]\S*AllUsers"
        rf"|{_W}(?:delete-public-access-block){_E}"
        # a key's use given to a whole account (`--grantee-principal arn:aws:iam::ACCOUNT:root`): anyone there
        rf"|{_W}kms\s+create-grant{_E}.*--grantee-principal[=\s]+\S*:root{_E}"
        # a user put in an administrators' group; a resource's permission given to every principal (a layer,
        # a function, a topic or a queue that anyone may use)
        rf"|{_W}iam\s+add-user-to-group{_E}.*--group-name[=\s]+[\"']?\S*(?i:admin)"
        rf"|{_W}add-(?:layer-version-)?permission{_E}.*--principal[=\s]+[\"']?\*"
        rf"|{_W}authorize-security-group-ingress{_E}.*(?:0\.0\.0\.0/0|::/0)"
        rf"|{_W}modify-(?:db-instance|db-snapshot-attribute){_E}.*(?:--publicly-accessible|all{_E})"
        # a disk snapshot or a machine image shared with another account
        rf"|{_W}modify-(?:snapshot|image|db-snapshot|db-cluster-snapshot)-attribute{_E}"
        rf".*(?:--operation-type[=\s]+add|Add=|--values-to-add|--launch-permission)"
        # the data lake's own permissions bypassed for every IAM principal, or its administrators replaced
        rf"|{_W}lakeformation\s+(?:grant-permissions{_E}.*IAM_ALLOWED_PRINCIPALS|put-data-lake-settings{_E})",
        changes=rf"{_W}(?:(?:create|put|update|delete|attach|detach|modify|terminate|run|start|stop|reboot|invoke"
        rf"|publish|send|set|add|remove|authorize|revoke|deploy|restore|register|deregister|import|associate"
        rf"|disassociate|enable|disable|reset|cancel|execute|rotate)(?:-[\w-]+)?|deploy|cp|mv|rm|sync|rb|mb){_E}",
        live=rf"{_W}(?:route53\s+change-resource-record-sets|route53domains\s+(?:transfer-domain\S*|update-domain-nameservers"
        rf"|disable-domain-transfer-lock|disable-domain-auto-renew|update-domain-contact\S*)){_E}",
    ),
    _p(
        "gcloud",
        R.INFRA_DESTROYER,
        R.SENDS,  # uploads to its store (`cp FILE s3://...`)
        options=(
            *("--project", "--billing-project", "--configuration", "--account", "--format", "--verbosity"),
            *("--impersonate-service-account", "--content-type", "--cache-control", "--region", "--zone"),
        ),
        # (a key's version destroyed: whatever it encrypted can never be read again)
        destroys_all=rf"{_W}projects\s+delete{_E}|{_W}storage\s+rm{_E}.*{_W}(?:-r|--recursive){_E}"
        rf"|{_W}kms\s+keys\s+versions\s+destroy{_E}",
        destroys_one=rf"{_W}(?:delete|destroy|storage\s+rm){_E}",
        store_service="storage",
        grants=rf"{_W}add-iam-policy-binding{_E}.*--role[=\s]+roles/(?:owner|editor|iam\.\w*[Aa]dmin)"
        # everyone on the internet made a member, or a firewall opened to every address
        rf"|{_W}add-iam-policy-binding{_E}.*--member[=\s]+[\"']?(?:allUsers|allAuthenticatedUsers)"
        rf"|{_W}firewall-rules\s+(?:create|update){_E}.*--source-ranges[=\s]+[\"']?0\.0\.0\.0/0"
        # a workload identity provider whose condition holds for every token (any repository of the forge)
        rf"|{_W}providers\s+(?:create|update)-oidc{_E}.*--attribute-condition[=\s]+[\"']?true[\"']?{_E}",
        schedules=rf"{_W}scheduler\s+jobs\s+create{_E}",
        # a bucket's retention lock lifted, an organisation policy's enforcement switched off, TLS checks off
        disables=rf"{_W}--clear-retention-period{_E}|{_W}org-policies\s+disable-enforce{_E}"
        # a bucket's earlier versions or deleted objects no longer kept
        rf"|{_W}buckets\s+update{_E}.*(?:{_W}--no-versioning|{_W}--clear-soft-delete){_E}"
        rf"|{_W}config\s+set\s+auth/disable_ssl_validation\s+(?:true|True|1){_E}",
        changes=rf"{_W}(?:deploy|create|update|delete|set|patch|apply|import|cp|mv|rm|rsync|restore|start|stop|reset"
        rf"|resize|(?:add|remove)-[\w-]+|ssh|scp|submit|execute|enable|disable){_E}",  # (`run` is a group)
        live=rf"{_W}(?:dns\s+record-sets\s+(?:create|update|delete|transaction\s+execute|import)"
        rf"|domains\s+registrations\s+(?:configure|transfer|export)){_E}",
    ),
    # research data stores' own deleters: iRODS's `irm`, HPSS's `hsi "rm ..."` (a collection deleted asks, as
    # `rm -r` of a folder outside the project does), a GPFS fileset deleted
    _p("irm", R.INFRA_DESTROYER, destroys_one=r"^"),
    _p("hsi", R.INFRA_DESTROYER, destroys_one=rf"(?:^|[\s\"';])rm{_E}"),
    _p("mmdelfileset", R.STORAGE_DESTROYER, aliases=("mmdelfs", "mmdeldisk")),
    _p(
        "gsutil",
        R.INFRA_DESTROYER,
        R.SENDS,  # uploads to its store (`cp FILE s3://...`)
        destroys_all=rf"{_W}rb{_E}|{_W}rm{_E}.*{_W}-\w*r\w*{_E}",
        destroys_one=rf"{_W}rm{_E}",
        store_service="",
        grants=rf"(?:^|\s)(?:allUsers|allAuthenticatedUsers|AllUsers):|{_W}acl\s+set{_E}.*public-read",
        # a bucket's retention policy cleared, its versioning turned off: deleted and overwritten data is gone
        disables=rf"{_W}retention\s+clear{_E}|{_W}versioning\s+set\s+off{_E}",
        # (`iam get`, `acl get`, `versioning get`: a setting read)
        changes=rf"{_W}(?:cp|mv|rm|rsync|rb|mb|setmeta|(?:acl|iam|defacl|lifecycle|versioning)(?!\s+get{_E})){_E}",
    ),
    _p(
        "az",
        R.INFRA_DESTROYER,
        destroys_all=rf"{_W}group\s+delete{_E}",
        # (and a resource deleted through the REST API: `az rest --method delete --url ...`)
        destroys_one=rf"{_W}delete(?:-batch)?{_E}|{_W}purge{_E}|{_W}rest{_E}.*(?:--method|-m)[=\s]+['\"]?(?i:delete)",
        # someone added to an Azure DevOps group or organisation
        grants=rf"{_W}devops\s+(?:security\s+group\s+membership|user)\s+add{_E}|{_W}role\s+assignment\s+create{_E}"
        r".*--role[=\s]+[\"']?(?:Owner|Contributor|User Access Admin)"
        # Entra ID: an owner or member added, an app trusting another identity provider's tokens, API
        # permissions consented for the whole tenant, a directory role handed out, a database's admin set
        rf"|{_W}ad\s+(?:app|sp|group)\s+(?:owner|member)\s+add{_E}|{_W}ad\s+app\s+federated-credential\s+create{_E}"
        rf"|{_W}ad\s+app\s+permission\s+(?:admin-consent|grant){_E}|{_W}sql\s+server\s+ad-admin\s+(?:create|set){_E}"
        # a storage container opened to anonymous readers, a network rule opened to every address
        rf"|{_W}--public-access[=\s]+(?:blob|container){_E}|{_W}--allow-blob-public-access[=\s]+true{_E}"
        rf"|{_W}nsg\s+rule\s+(?:create|update){_E}.*--source-address-prefixes[=\s]+[\"']?(?:\*|Internet|0\.0\.0\.0/0)"
        # a database firewall opened to every address, a vault opened to every network or given to someone
        rf"|{_W}firewall-rule\s+create{_E}(?=.*--start-ip-address[=\s]+0\.0\.0\.0{_E})(?=.*--end-ip-address[=\s]+"
        rf"255\.255\.255\.255{_E})|{_W}keyvault\s+update{_E}.*(?:--public-network-access[=\s]+Enabled|--default-action"
        rf"[=\s]+Allow){_E}|{_W}keyvault\s+set-policy{_E}.*--(?:secret|key|certificate)-permissions{_E}",
        # Defender plans dropped to the free tier, diagnostics or auditing switched off
        disables=rf"{_W}security\s+pricing\s+create{_E}.*--tier[=\s]+(?i:free){_E}"
        rf"|{_W}monitor\s+diagnostic-settings\s+delete{_E}|{_W}sql\s+server\s+audit-policy\s+update{_E}.*--state"
        rf"[=\s]+Disabled{_E}",
        changes=rf"{_W}(?:create|update|delete|set|add|remove|assign|deploy|start|stop|restart|upload|purge|import"
        rf"|restore|swap|invoke|run|reset|regenerate|rotate|enable|disable)(?:-[\w-]+)?{_E}",
        live=rf"{_W}network\s+dns\s+record-set\s+\S+\s+(?:add-record|set-record|create|delete|remove-record|update){_E}",
    ),
    # machine-learning tools: a notebook server opened to the network with no token, a Ray head whose job
    # API (code execution) listens on every address, a notebook run from an address, a cache's remote purged
    _p(
        "jupyter",
        R.INFRA_DESTROYER,
        aliases=("jupyter-lab", "jupyter-notebook"),
        grants=rf"(?=.*--ip[=\s]+['\"]?(?:0\.0\.0\.0|\*|::)['\"]?(?:{_E}|$))"
        rf"(?=.*(?:Token|token|password)[=\s]*(?:''|\"\"|{_E}))",
    ),
    # Servers started open: a cache, a database or a node that answers anyone on the network, its own
    # protection switched off, or an API that signs or runs things (Docker's, a node's `personal`/`admin`)
    # listening on every address without authentication
    _p("redis-server", R.SERVER, aliases=("valkey-server",), disables=rf"--protected-mode[=\s]+['\"]?no{_E}"),
    _p(
        "dockerd",
        R.SERVER,
        grants=rf"^(?!.*--tlsverify{_E})(?=.*(?:-H|--host)[=\s]+['\"]?tcp://(?!127\.|localhost|\[?::1))",
    ),
    _p(
        "mongod",
        R.SERVER,
        grants=rf"^(?!.*{_W}--auth{_E})(?=.*(?:--bind_ip_all{_E}|--bind_ip[=\s]+['\"]?(?:0\.0\.0\.0|::)))",
    ),
    _p(
        "geth",
        R.SERVER,
        aliases=("bor", "erigon"),
        disables=rf"--allow-insecure-unlock{_E}",
        grants=r"(?=.*--(?:http|ws)\.addr[=\s]+['\"]?(?:0\.0\.0\.0|::))"
        r"(?=.*--(?:http|ws)\.api[=\s]+['\"]?[\w,]*(?:personal|admin|debug|miner))",
    ),
    _p(
        "ray",
        R.INFRA_DESTROYER,
        grants=rf"{_W}start{_E}.*--dashboard-host[=\s]+['\"]?(?:0\.0\.0\.0|::)",
        changes=rf"{_W}(?:start|stop|up|down|submit|job\s+(?:submit|stop|delete)){_E}",
    ),
    _p("papermill", R.INFRA_DESTROYER, fetches_code=r"(?:^|\s)https?://"),
    _p(
        "dvc",
        R.INFRA_DESTROYER,
        # every version the workspace does not use deleted from the remote storage too
        destroys_all=rf"{_W}gc{_E}.*(?:{_W}-c{_E}|--cloud{_E})",
        changes=rf"{_W}(?:push|gc|remote\s+(?:add|modify|remove)|exp\s+push){_E}",
    ),
    _p(
        "doctl",
        R.INFRA_DESTROYER,
        destroys_one=rf"{_W}(?:delete|rm){_E}",
        # an SSH key from outside the user's own ~/.ssh put on the account: every new droplet lets it in
        grants=rf"{_W}compute\s+ssh-key\s+(?:import|create){_E}.*--public-key(?:-file)?[=\s]+"
        r"(?!(?:~|\$HOME|/root|/home/[^/\s]+|/Users/[^/\s]+)/\.ssh/)",
        changes=rf"{_W}(?:create|update|delete|rm|deploy|apply|resize|power-\w+|rebuild|restore){_E}",
        live=rf"{_W}compute\s+domain\s+(?:records\s+(?:create|update|delete)|delete){_E}",
    ),
    # OpenStack's client: its resources deleted, the admin role given, a security group opened to all
    _p(
        "openstack",
        R.INFRA_DESTROYER,
        options=(
            "--os-cloud",
            "--os-project-name",
            "--os-region-name",
            "--project",
            "--user",
            "--format",
            "-f",
        ),
        destroys_one=rf"{_W}(?:server|volume|stack|network|subnet|router|image|project|user|port|share"
        rf"|security\s+group|floating\s+ip|keypair|container|object|zone|recordset)(?:\s+rule)?\s+(?:delete|purge){_E}",
        grants=rf"{_W}role\s+add{_E}.*{_W}admin{_E}"
        rf"|{_W}security\s+group\s+rule\s+create{_E}.*--remote-ip[=\s]+(?:0\.0\.0\.0/0|::/0){_E}",
        changes=rf"{_W}(?:create|set|unset|delete|add|remove|rebuild|resize|reboot|migrate|purge){_E}",
    ),
    _p(
        "cap",  # Capistrano: `cap STAGE TASK`, the stage is where its servers are
        R.INFRA_DESTROYER,
        aliases=("capistrano",),
        changes=rf"{_W}(?:deploy|rollback|invoke|puma|sidekiq|unicorn|passenger|db|rake|rails|console"
        rf"|ssh|run|execute|migrate|stop|start)(?::(?!check|status|log)[\w:-]+)?{_E}",  # not `deploy:check`
    ),
    _p(
        "heroku",
        R.INFRA_DESTROYER,
        deploys_to=("*.herokuapp.com",),
        # a plugin from an address or a repository: its code runs inside every later command
        fetches_code=rf"{_W}plugins:(?:install|link){_E}\s+(?:-\S+\s+)*(?:\S*://|git[@+]|\.|/)",
        options=("-a", "--app", "-r", "--remote", "-s", "--size", "-e", "--env", "--type", "-t", "--team"),
        destroys_all=rf"{_W}(?:apps:destroy|pg:reset){_E}",
        destroys_one=rf"{_W}pg:backups:(?:delete|destroy){_E}",
        # a `topic:verb` whose verb acts (listing topics are nouns: `pg:backups`, `releases`), and the bare
        # commands that change an app (`rollback`, `run`)
        changes=rf"{_W}(?:[\w-]+:)+(?:set|unset|create|destroy|reset|promote|rollback|scale|add|remove"
        rf"|push|release|pull|delete|restore|on|off|kill|killall|stop|exec|run|copy|attach|detach|upgrade|update"
        rf"|rotate|transfer|enable|disable|cancel|unfollow|fork|import|clear|lock|unlock|detached|inside|psql){_E}"
        rf"|{_W}(?:rollback|run|scale|promote|destroy){_E}",  # (a restart changes nothing: it runs as it was)
        # an SSH key that is not one of the user's own added to the account; a collaborator added to an app
        grants=rf"{_W}keys:add{_E}\s+(?!(?:~|\$HOME|/home/[^/\s]+|/root)/\.ssh/)\S|{_W}access:add{_E}",
        code_options=("-c", "--command"),  # `pg:psql -c SQL`: a statement that only reads changes nothing
        remote_runs=("run", "run:detached", "run:inside"),
    ),
    # Azure Functions Core Tools: an app published straight from this machine (`func azure functionapp publish
    # NAME`), its settings pushed or deleted
    _p(
        "func",
        R.INFRA_DESTROYER,
        changes=rf"{_W}azure\s+functionapp\s+publish{_E}|{_W}settings\s+(?:add|delete){_E}",
    ),
    # Android's debug bridge: `adb shell CMD` runs CMD on the device (an app uninstalled or its data cleared
    # is a developer's daily reset of an emulator)
    _p("adb", R.INFRA_DESTROYER, options=("-s", "-t", "-H", "-P", "-L"), remote_runs=("shell",)),
    _p(
        "gh",
        R.INFRA_DESTROYER,
        destroys_all=rf"{_W}repo\s+delete{_E}"
        rf"|{_W}api{_E}(?=.*(?:-X|--method)[=\s]*DELETE{_E})(?=.*{_W}/?repos/[^/\s]+/[^/\s]+/?{_E})",
        # (a workflow cache deleted is built again by the next run: no loss)
        destroys_one=rf"{_W}(?:release|secret|variable|run|gist|label|ruleset)\s+delete{_E}"
        rf"|{_W}api{_E}(?=.*(?:-X|--method)[=\s]*DELETE{_E})(?=.*/git/refs/)",
        grants=rf"collaborators/\S+.*permission=(?:admin|maintain|push|write)"
        # every workflow's token made writable, or allowed to approve pull requests
        rf"|{_W}api{_E}.*actions/permissions/workflow.*(?:default_workflow_permissions=write|"
        rf"can_approve_pull_request_reviews=true)|{_W}repo\s+edit{_E}.*--visibility[=\s]+public"
        rf"|{_W}(?:ssh-key|gpg-key)\s+add\s+(?!(?:~|\$HOME|/home/[^/\s]+|/root)/\.(?:ssh|gnupg)/)\S"
        rf"|{_W}repo\s+deploy-key\s+add{_E}"  # a key of the user's own ~/.ssh is theirs to add
        rf"|{_W}api{_E}(?=.*/keys{_E})(?=.*read_only[=\s:\"']*false)"  # a deploy key that may push
        # a repository made public through the API
        rf"|{_W}api{_E}.*(?:visibility[=\s:\"']*public|[\"']?private[\"']?[=\s:]*false)",
        # a branch's protection removed (`gh api -X DELETE repos/o/r/branches/main/protection`)
        disables=rf"{_W}api{_E}(?=.*(?:-X|--method)[=\s]*(?:DELETE|PUT|PATCH){_E})(?=.*/protection\S*{_E})"
        # the repository's secret scanning or push protection switched off
        rf"|{_W}api{_E}(?=.*security_and_analysis)(?=.*(?:=|:\s*\")disabled(?:{_E}|\"))"
        # vulnerability alerts or security fixes switched off, the repository's Actions turned off
        rf"|{_W}api{_E}(?=.*(?:-X|--method)[=\s]*DELETE{_E})"
        rf"(?=.*/(?:vulnerability-alerts|automated-security-fixes|private-vulnerability-reporting){_E})"
        rf"|{_W}api{_E}(?=.*/actions/permissions{_E})(?=.*enabled[=:]\s*\"?false)"
        # a security scan's workflow switched off (`gh workflow disable CodeQL`); a run's logs deleted
        rf"|{_W}workflow\s+disable{_E}.*(?i:{SECURITY_CHECKS.pattern.removeprefix('(?i)')})"
        rf"|{_W}api{_E}(?=.*(?:-X|--method)[=\s]*DELETE{_E})(?=.*/runs/\S*/logs{_E})",
        fetches_code=rf"{_W}extension\s+(?:install|upgrade){_E}",
        changes=rf"{_W}(?:pr\s+(?:merge|close|reopen|review|comment|create|edit|ready|lock)|issue\s+(?:create|comment"
        rf"|close|reopen|edit|delete|transfer|lock)|release\s+(?:create|upload|edit|delete)|repo\s+(?:create|edit"
        rf"|delete|fork|rename|archive|deploy-key)|(?:secret|variable)\s+(?:set|delete)|workflow\s+(?:run|enable"
        rf"|disable)|run\s+(?:rerun|cancel)|gist\s+(?:create|edit)|label\s+(?:create|delete)"
        rf"|api{_E}(?=.*(?:-X|--method)[=\s]*(?:POST|PUT|PATCH|DELETE){_E}|.*\s-[fF]\s)){_E}",
    ),
    # Argo CD: an application deleted with what it deployed, a sync that prunes what its source no longer
    # holds, an account's token with no expiry
    _p(
        "argocd",
        R.INFRA_DESTROYER,
        destroys_all=rf"{_W}app\s+delete{_E}(?!.*--cascade[=\s]+false)",
        destroys_one=rf"{_W}app\s+sync{_E}.*--prune{_E}|{_W}(?:proj|repo|cluster|appset)\s+(?:delete|rm){_E}",
        grants=rf"{_W}account\s+generate-token{_E}(?!.*(?:--expires-in|\s-e){_E})",
        changes=rf"{_W}(?:app\s+(?:sync|set|delete|rollback|create|patch|terminate-op)|account\s+generate-token"
        rf"|proj\s+\S+|repo\s+(?:add|rm)|cluster\s+(?:add|rm)){_E}",
    ),
    # GitLab's CLI: `glab api` speaks the REST API (a project's id is its URL-encoded path)
    _p(
        "glab",
        R.INFRA_DESTROYER,
        destroys_all=rf"{_W}repo\s+delete{_E}"
        rf"|{_W}api{_E}(?=.*(?:-X|--method)[=\s]*DELETE{_E})(?=.*{_W}/?projects/[^/\s]+/?{_E})",
        destroys_one=rf"{_W}(?:release|variable|schedule|label|ci)\s+delete{_E}",
        # a project made public; a member given Maintainer (40) or Owner (50); a deploy key that may push
        grants=rf"{_W}api{_E}.*visibility[=\s:\"']*public|{_W}repo\s+edit{_E}.*--visibility[=\s]+public"
        rf"|{_W}api{_E}(?=.*/members)(?=.*access_level[=\s:\"']*[45]0\b)"
        rf"|{_W}deploy-key\s+add{_E}.*(?:--can-push|\s-p){_E}"
        rf"|{_W}api{_E}(?=.*/deploy_keys)(?=.*can_push[=\s:\"']*true)",
        # a branch's protection removed
        disables=rf"{_W}api{_E}(?=.*(?:-X|--method)[=\s]*(?:DELETE|PUT|PATCH){_E})(?=.*/protected_branches\S*{_E})",
        schedules=rf"{_W}schedule\s+create{_E}",
        changes=rf"{_W}(?:mr\s+(?:merge|close|approve|create|update)|issue\s+(?:create|close|delete|update)"
        rf"|release\s+(?:create|delete)|repo\s+(?:create|delete|fork|edit|archive)|variable\s+(?:set|delete|update)"
        rf"|api{_E}(?=.*(?:-X|--method)[=\s]*(?:POST|PUT|PATCH|DELETE){_E}|.*\s-[fF]\s)){_E}",
    ),
    _p(
        "databricks",
        R.INFRA_DESTROYER,
        # (a scratch folder of the file system, `dbfs:/tmp/...`, is anyone's to clear)
        destroys_all=rf"{_W}(?:(?:fs\s+rm|workspace\s+delete){_E}(?!.*\sdbfs:/tmp/).*{_W}(?:-r|--recursive){_E}"
        rf"|catalogs\s+delete"
        rf"|metastores\s+delete|bundle\s+destroy){_E}",
        destroys_one=rf"{_W}(?:delete|permanent-delete|rm){_E}",
        changes=rf"{_W}(?:create|update|delete|permanent-delete|rm|cp|mv|set|submit|run-now|deploy|destroy|import"
        rf"|reset|start|restart|edit|put|set-status|bundle\s+run){_E}",
        grants=rf"{_W}(?:grants|permissions)\s+(?:update|set){_E}.*(?:ALL_PRIVILEGES|IS_OWNER|CAN_MANAGE)",
        disables=rf"{_W}workspace-conf\s+set-status{_E}.*enable(?:IpAccessLists|TokensConfig)\W+false"
        rf"|{_W}ip-access-lists\s+delete{_E}",
        # a cluster's libraries, installed from the registries they name
        package_options=(
            ("--pypi-package", "pypi"),
            ("--maven-coordinates", "maven"),
            ("--cran-package", "cran"),
        ),
    ),
    _p(
        "vault",
        R.INFRA_DESTROYER,
        # every secret of an engine, every lease under a prefix, the whole server sealed
        destroys_all=rf"{_W}(?:secrets|auth)\s+disable{_E}|{_W}kv\s+metadata\s+delete{_E}"
        rf"|{_W}lease\s+revoke{_E}.*-prefix{_E}|{_W}operator\s+seal{_E}",
        # (`token revoke -self`: the caller's own token, given up)
        # (a server taken out of the cluster's consensus: with enough gone, it stops answering)
        destroys_one=rf"{_W}(?:kv\s+)?(?:delete|destroy){_E}|{_W}(?:lease|token)\s+revoke{_E}(?!.*{_W}-self{_E})"
        rf"|{_W}operator\s+raft\s+remove-peer{_E}",
        # a policy with every path or sudo, a database role that makes superusers (the policy's own text comes
        # on standard input as often as in a file); `policies=root` is the table of controls'
        # (the policy's text spans lines); a GitHub user or team mapped to the root policy
        grants=rf"(?s)(?:{_W}policy\s+write|{_W}write\s+\S*sys/polic(?:y|ies)/){_E}.*(?:path\s+[\"']\*[\"']|[\"']sudo[\"'])"
        r"|creation_statements=.*\bSUPERUSER\b"
        rf"|{_W}write\s+\S*auth/[\w-]+/map/(?:users|teams)/\S+.*{_W}value=\S*\broot\b"
        # a role that hands out tokens with the root policy (`token_policies=default,root`)
        rf"|{_W}write\s+\S*auth/\S+{_E}.*{_W}(?:token_)?policies=\S*\broot\b",
        disables=rf"{_W}audit\s+disable{_E}|{_W}audit\s+enable{_E}.*file_path=/dev/null",
        changes=rf"{_W}(?:write|delete|policy\s+(?:write|delete)|(?:secrets|auth|audit)\s+(?:enable|disable|tune|move)"
        rf"|operator\s+(?:seal|unseal|rekey|step-down|raft)|lease\s+revoke|token\s+(?:create|revoke)"
        rf"|kv\s+(?:put|patch|delete|destroy|rollback|metadata\s+delete)){_E}",
    ),
    # balena's fleets of devices: a fleet (with its devices) or a device removed, an SSH key added to the
    # account (root on every device), a device's services put on a public address, a fleet switched into
    # development mode or a development image (root login without a password) made for it
    _p(
        "balena",
        R.INFRA_DESTROYER,
        destroys_all=rf"{_W}(?:fleet|app)\s+rm{_E}",
        destroys_one=rf"{_W}(?:device|release|tag|env|key|ssh-key)\s+rm{_E}|{_W}device\s+purge{_E}",
        grants=rf"{_W}(?:key|ssh-key)\s+add{_E}|{_W}device\s+public-url\s+enable{_E}",
        disables=rf"SUPERVISOR_DEVELOPMENT_MODE\s+(?:1|true){_E}|{_W}os\s+configure{_E}.*{_W}--dev{_E}",
        changes=rf"{_W}(?:push|deploy|device\s+(?:reboot|shutdown|restart|move)|env\s+(?:set|add)|os\s+configure){_E}",
    ),
    # Zephyr's west: `west forall -c CMD` runs the command line in every project of the workspace
    _p("west", R.RUNS_OPTION, command_options=("-c",)),
    # Perforce Helix: files and their history obliterated, a depot, a user or someone's shelf deleted with
    # force; who may do what (the protections table, a group's members), the triggers that check submits,
    # the file-type map, and the server's security level, password rules and logs changed; a server's
    # fingerprint trusted in place of the one known; where later commands go (P4PORT) set for good
    _p(
        "p4",
        R.INFRA_DESTROYER,
        R.SENDS,
        aliases=("perforce", "helix", "p4v"),
        options=("-u", "-P", "-p", "-c", "-C", "-d", "-H", "-x", "-z", "-r", "-Q", "-L", "-I"),
        # (the server `-p` names is where its files, and the password `-P` gives, go; `obliterate` without
        # `-y`, or a tool's confirmation, only reports what it would remove)
        host_options=("-p",),
        destroys_all=rf"{_W}(?:obliterate{_E}(?=.*(?:{_W}-[A-Za-z]*y|confirm|{_W}yes{_E}))|depot\s+-d|typemap\s+-i){_E}",
        destroys_one=rf"{_W}(?:user|client|workspace|label|branch|stream|shelve|group|job)\s+(?:-\w+\s+)*-d{_E}"
        rf".*{_W}-f{_E}|{_W}archive{_E}.*{_W}-p{_E}|{_W}admin\s+stop{_E}",
        grants=rf"{_W}(?:protect|group|groups)\s+-i{_E}|{_W}super\s+(?:user|group)\s+\*",
        disables=rf"{_W}triggers\s+-i{_E}|{_W}configure\s+(?:set|unset){_E}\s+(?:\S+#)?(?:security|dm\.password\.\w+"
        rf"|dm\.user\.\w+|monitor|server|serverlog\.\S+|auth\.\S+|net\.mimcheck|dm\.keys\.hide|run\.users\.authorize)\b"
        rf"|{_W}trust\s+(?:-\w+\s+)*-f{_E}",
        reroutes=rf"{_W}set\s+(?:-s\s+)?P4PORT=",
        changes=rf"{_W}(?:obliterate|depot|user|group|protect|triggers|typemap|configure|admin|submit|shelve|archive"
        rf"|retype|unzip){_E}",
    ),
    # a test or development database by its conventional name (`shop_test`, `app_dev`) is recreated at will:
    # dropping one is the test suite's own set-up
    _p(
        "dropdb",
        R.INFRA_DESTROYER,
        aliases=("dropuser",),
        destroys_all=rf"^(?!.*(?:^|\s){SCRATCH_DATABASE}(?:\s|$)).",
        destroys_one=rf"^(?!.*(?:^|\s){SCRATCH_DATABASE}(?:\s|$)).",
    ),
    _p("mysqladmin", R.INFRA_DESTROYER, destroys_all=rf"{_W}drop{_E}"),
    # Teleport's admin tool: a user or bot given an editor, access or admin role, a join token living for
    # months; a resource removed, or a certificate authority rotated with no grace period (every session and
    # node it signed cut off)
    _p(
        "tctl",
        R.INFRA_DESTROYER,
        grants=rf"{_W}(?:users?|bots?)\s+(?:add|update){_E}.*--roles[=\s]\S*(?:editor|access|admin)"
        rf"|{_W}tokens?\s+add{_E}.*--ttl[=\s]*(?:[1-9]\d{{3,}}h|[1-9]\d{{2,}}d)",
        destroys_one=rf"{_W}rm{_E}|{_W}auth\s+rotate{_E}.*--grace-period[=\s]*0",
        changes=rf"{_W}(?:create|rm|edit|update|users|bots|tokens|auth){_E}",
    ),
    # Slurm's controls: jobs cancelled across an account, a partition or other users (the user's own, by
    # id or as `$USER`, are theirs), nodes drained or taken down, the controller stopped; an account's users
    # and limits (a user made an administrator, a limit lifted)
    _p(
        "scancel",
        R.INFRA_DESTROYER,
        destroys_one=rf"^(?!.*{_W}(?:-u|--user)[=\s]*(?:\$USER|\$\{{USER\}}|\$\(whoami\)|\$LOGNAME){_E})"
        rf"(?:.*{_W}(?:-A|--account|-p|--partition|-w|--nodelist)(?:[=\s]|{_E})|.*{_W}(?:-u|--user)[=\s]*\S)",
    ),
    _p(
        "scontrol",
        R.INFRA_DESTROYER,
        destroys_one=rf"(?i){_W}update{_E}.*{_W}state=(?:drain|down|fail|power_down){_E}|{_W}(?:shutdown|delete){_E}",
        changes=rf"{_W}(?:update|create|delete|reconfigure|shutdown|hold|release|requeue){_E}",
    ),
    _p(
        "sacctmgr",
        R.INFRA_DESTROYER,
        grants=rf"(?i){_W}adminlevel=(?:admin\w*|operator){_E}|{_W}add\s+user{_E}"
        rf"|{_W}set{_E}.*(?:grp\w*|max\w*)=-1{_E}",
        destroys_one=rf"(?i){_W}(?:delete|remove){_E}",
        changes=rf"(?i){_W}(?:add|create|modify|update|delete|remove){_E}",
    ),
    # Splunk's own CLI: an index's events wiped, an index or a search removed, a search or an input disabled
    _p(
        "splunk",
        R.INFRA_DESTROYER,
        # (a search ending in `| delete` erases every event it finds)
        destroys_all=rf"{_W}clean\s+(?:eventdata|all|globaldata|userdata|kvstore){_E}"
        rf"|{_W}search{_E}.*\|[ \t]*delete(?:[ \t]*\||\s+-|\s*$)",
        destroys_one=rf"{_W}remove\s+(?:index|saved-search|app|user|monitor){_E}",
        disables=rf"{_W}disable\s+(?:index|saved-search|app|listen|monitor){_E}"
        rf"|{_W}edit\s+saved-search{_E}.*{_W}-disabled\s+(?:1|true){_E}",
    ),
    # CrowdStrike's sensor control: its customer id deleted (the sensor no longer reports), reduced mode
    _p("falconctl", R.SECURITY_CONTROL, disables=rf"{_W}-d{_E}|--rfm-state[=\s]*true"),
    # a site's certificate revoked or deleted: browsers refuse the site until a new one is issued
    _p("certbot", R.INFRA_DESTROYER, destroys_one=rf"{_W}(?:revoke|delete){_E}"),
    # Debian's PostgreSQL cluster tools: a cluster dropped is every database in it, its files removed
    _p("pg_dropcluster", R.INFRA_DESTROYER, destroys_all=r"."),
    # a registry's package: withdrawn, or handed to another maintainer, or made public, which outlasts the
    # session (`npm owner add`, `gem owner --add`, `cargo owner --add`, `npm access set status=public`)
    *(
        _p(
            name,
            R.INFRA_DESTROYER,
            destroys_one=rf"{_W}unpublish{_E}",
            grants=rf"{_W}(?:owner|author)\s+add{_E}|{_W}access\s+(?:grant{_E}|(?:set\s+)?(?:status=)?public{_E})"
            rf"|{_W}team\s+add{_E}",
        )
        for name in ("npm", "pnpm")
    ),
    _p(
        "cargo",
        R.INFRA_DESTROYER,
        destroys_one=rf"{_W}yank{_E}(?!.*\s--undo{_E})",
        grants=rf"{_W}owner{_E}.*(?:\s-a|--add){_E}",
    ),
    _p("gem", R.INFRA_DESTROYER, destroys_one=rf"{_W}yank{_E}", grants=rf"{_W}owner{_E}.*(?:\s-a|--add){_E}"),
    _p(
        "prisma",
        R.INFRA_DESTROYER,
        # (a push that may drop what the schema no longer has, told not to ask: `--accept-data-loss`)
        destroys_one=rf"{_W}migrate\s+reset{_E}|{_W}db\s+push{_E}.*--(?:force-reset|accept-data-loss){_E}",
        changes=rf"{_W}(?:migrate\s+(?:deploy|reset|resolve)|db\s+(?:push|execute|seed)){_E}",
    ),
    # Drizzle's schema push told not to ask before the statements that lose data (a column or a table the
    # schema no longer has is dropped with its rows)
    _p(
        "drizzle-kit",
        R.INFRA_DESTROYER,
        destroys_one=rf"{_W}push{_E}.*{_W}--force{_E}",
        changes=rf"{_W}(?:push|migrate){_E}",
    ),
    # frameworks' and migration tools' database commands: every table emptied or dropped, or every migration
    # undone (the server is the project's configured one, which the line does not show: asked)
    _p(
        "rails",
        R.INFRA_DESTROYER,
        aliases=("rake",),
        # Rails itself refuses these in a protected (production) environment unless the check is disabled; by
        # default they reach the development database. Another environment named (staging), or the check off,
        # reaches a database others use.
        destroys_one=rf"(?=.*(?:{_W}DISABLE_DATABASE_ENVIRONMENT_CHECK=1{_E}|{_W}(?:RAILS|RACK)_ENV=(?!test{_E}|"
        rf"development{_E})\w|{_W}(?:-e|--environment)[=\s]+(?!test{_E}|development{_E})\w))"
        rf".*{_W}db:(?:drop(?::all)?|reset|purge|schema:load|structure:load|truncate_all){_E}",
        changes=rf"{_W}db:(?:migrate(?!:status)|rollback|seed|drop|reset|purge|schema:load|structure:load"
        rf"|truncate_all|setup|prepare)\S*{_E}",
    ),
    # Django's `manage.py` (run by its interpreter or directly) and `django-admin` / `python -m django`
    _p(
        "manage.py",
        R.INFRA_DESTROYER,
        aliases=("django-admin", "django"),
        destroys_one=rf"{_W}(?:flush|sqlflush|reset_db|reset_schema|drop_test_database){_E}"
        rf"|{_W}migrate\s+\w+\s+zero{_E}",
        changes=rf"{_W}(?:migrate|flush|loaddata|createsuperuser|changepassword|sqlflush|reset_db){_E}",
        console=("shell", ("python3", "-c"), ("-c", "--command")),
        db_console=("dbshell", "psql"),
    ),
    _p(
        "artisan",
        R.INFRA_DESTROYER,
        # Laravel refuses these in production unless forced; by default they reach the local database. Forced,
        # or another environment named than a local or testing one, they reach a database others use.
        # (queued work dropped there too: pending jobs never run)
        destroys_one=rf"(?=.*(?:{_W}--force{_E}|{_W}--env[=\s]+(?!(?:local|testing|test|dev|development){_E})\w))"
        rf".*{_W}(?:migrate:(?:fresh|reset|refresh)|db:wipe|queue:(?:flush|clear)|horizon:clear){_E}",
        changes=rf"{_W}(?:migrate(?!:status)(?::\S+)?|db:(?:seed|wipe)){_E}",
    ),
    # WP-CLI: a WordPress site's database, users, plugins and options (on this machine, or over ssh on the
    # servers that run the site)
    # Magento's console: the store's settings written by path, its database emptied by `setup:uninstall`
    _p(
        "magento",
        R.INFRA_DESTROYER,
        aliases=("n98-magerun2", "magerun2"),
        options=("--scope", "--scope-code", "--lock-env", "--lock-config"),
        destroys_all=rf"{_W}setup:uninstall{_E}",
        # the admin's second factor, the forms' CAPTCHA, the content security policy switched off
        disables=rf"{_W}module:disable(?:\s+\S+)*?\s+\S*(?:TwoFactor|ReCaptcha|Captcha|_Csp\b|Security|AdminAnalytics"
        rf"|LoginAsCustomerLog)\S*{_E}",
        changes=rf"{_W}(?:config:set|setup:upgrade|module:(?:enable|disable)|deploy:mode:set"
        rf"|admin:user:create|setup:static-content:deploy){_E}",
        setting_pairs=("config:set",),
    ),
    _p(
        "wp",
        R.INFRA_DESTROYER,
        setting_pairs=("option update", "option set", "option add"),
        text_verbs=("search-replace",),
        options=("--path", "--url", "--user", "--skip-plugins", "--skip-themes", "--require", "--exec"),
        console=("eval", ("php", "-r"), ()),  # `wp eval 'wp_delete_user(1);'`
        # (and every plugin, theme, post or user deleted at once: `wp plugin delete --all`)
        destroys_one=rf"{_W}(?:db\s+(?:reset|drop|clean)|site\s+(?:empty|delete)"
        rf"|(?:plugin|theme|post|user|comment|term|media)\s+(?:delete|uninstall)(?:\s+\S+)*?\s+--all){_E}",
        grants=rf"{_W}(?:user\s+(?:create|update|set-role|add-role)(?:\s+\S+)*?\s+(?:--role[=\s])?administrator"
        rf"|super-admin\s+add|user\s+add-cap(?:\s+\S+)*?\s+(?:manage_options|edit_users|promote_users"
        rf"|unfiltered_html)|option\s+(?:update|set)\s+default_role\s+administrator){_E}",
        disables=rf"{_W}plugin\s+(?:deactivate|delete|uninstall)(?:\s+\S+)*?\s+(?:wordfence|sucuri-scanner"
        rf"|better-wp-security|ithemes-security-pro|all-in-one-wp-security-and-firewall|limit-login-attempts\S*"
        rf"|wp-2fa|two-factor|wps-hide-login|wp-cerber|defender-security){_E}"
        rf"|{_W}config\s+set\s+DISALLOW_FILE_(?:EDIT|MODS)\s+false{_E}",
        fetches_code=rf"{_W}(?:plugin|theme)\s+install(?:\s+\S+)*?\s+https?://",
        changes=rf"{_W}(?:core\s+update|plugin\s+(?:install|update|activate)|theme\s+(?:install|update|activate)"
        rf"|search-replace|db\s+import|option\s+(?:update|set|delete)){_E}",
    ),
    # Drush: a Drupal site's database, modules and roles (here, or on the site an `@alias` names)
    _p(
        "drush",
        R.INFRA_DESTROYER,
        options=("--uri", "-l", "--root", "-r"),
        console=("php:eval", ("php", "-r"), ()),  # `drush php:eval 'user_delete(1);'`
        destroys_one=rf"{_W}(?:sql:drop|sql-drop|site:install|site-install|si|entity:delete|user:cancel){_E}",
        grants=rf"{_W}(?:role:perm:add|role-add-perm|rap)\s+(?:anonymous|authenticated){_E}"
        rf"|{_W}user:role:add\s+(?:administrator|admin){_E}",
        disables=rf"{_W}(?:pm:uninstall|pmu|pm-uninstall)(?:\s+\S+)*?\s+(?:dblog|syslog|tfa|captcha|seckit"
        rf"|security_kit|password_policy|honeypot|flood_control|login_security|autologout|key|encrypt){_E}",
        changes=rf"{_W}(?:pm:install|pm:enable|en|config:set|cset|config:import|cim|updatedb|updb){_E}",
    ),
    # a CI runner registered: it takes the project's jobs, and the secrets they are given
    _p("gitlab-runner", R.BUILDS, grants=rf"{_W}register{_E}"),  # (`exec`: the project's CI jobs here)
    # toolchain managers: they download compilers and run them (rustup's mirror: `RUSTUP_DIST_SERVER`)
    _p("rustup", R.PACKAGE_INSTALLER),
    # a microcontroller's one-time fuses burnt, its flash locked against reading back (for good)
    _p("espefuse", R.INFRA_DESTROYER, aliases=("espefuse.py",), destroys_one=rf"{_W}burn[_-]\w+{_E}"),
    _p(
        "nrfjprog",
        R.INFRA_DESTROYER,
        destroys_one=rf"{_W}--rbp{_E}",  # (erasing a board to flash it again is the board's own use)
    ),
    # Laravel Vapor: serverless environments, databases and caches on AWS
    _p(
        "vapor",
        R.INFRA_DESTROYER,
        destroys_one=rf"{_W}(?:env|database|cache|network|project|domain|record|cert|storage):delete{_E}",
        # (the environment is the operand: `vapor deploy staging`, `vapor deploy production`)
        changes=rf"{_W}(?:deploy|redeploy|rollback|env:push|secret(?::\w+)?|command|database:\w+|down|up){_E}",
    ),
    # Symfony's `bin/console` (Doctrine)
    _p(
        "console",
        R.INFRA_DESTROYER,
        destroys_one=rf"{_W}doctrine:(?:database|schema):drop{_E}",
        changes=rf"{_W}doctrine:(?:migrations:migrate|schema:(?:update|drop)|database:drop){_E}",
    ),
    _p(
        "dotnet",
        R.INFRA_DESTROYER,
        R.PACKAGE_INSTALLER,
        # (a database updated to migration 0: every migration reverted, every table the project made dropped)
        # (and a published package's versions deleted, or unlisted, from the feed everyone installs from)
        destroys_one=rf"{_W}ef\s+database\s+(?:drop|update\s+0){_E}|{_W}nuget\s+delete{_E}",
        changes=rf"{_W}ef\s+database\s+(?:update|drop){_E}",
        # `dotnet script URL`: a C# script fetched from the address and run
        fetches_code=rf"{_W}script{_E}\s+(?:\S+\s+)*?['\"]?https?://",
        registry="nuget",
        installs=("add",),  # `dotnet add [PROJECT] package NAME`: every operand after it is read as a name
        options=("-v", "--version", "-s", "--source", "-f", "--framework", "--package-directory"),
    ),
    _p(
        "mix",
        R.INFRA_DESTROYER,
        # `mix run -e CODE`: Elixir run in the application, with its configuration and secrets
        console=("run", ("elixir", "-e"), ("-e", "--eval")),
        # a package's ownership given to someone (who may then publish what every user installs)
        grants=rf"{_W}hex\.owner\s+(?:add|transfer){_E}",
        # Hex told to skip TLS or signature checks, or to fetch from another mirror, for every later fetch
        reroutes=rf"{_W}hex\.(?:config\s+(?:unsafe_https|unsafe_registry|mirror_url|api_url|cacerts_path)"
        rf"|repo\s+(?:add|set)){_E}",
        # the default environment's database (dev) is the developer's to reset; production's is named
        destroys_one=rf"{_W}ecto\.(?:drop|reset|rollback\s+--all){_E}(?=.*(?:MIX_ENV|DATABASE_URL)=)",
        changes=rf"{_W}(?:ecto\.(?:migrate|rollback|drop|reset)|run){_E}",
        # an archive or escript from an address or a repository: code every later mix command loads
        fetches_code=rf"{_W}(?:archive|escript)\.install{_E}(?!\s+hex{_E})(?=.*(?:https?://|{_W}git(?:hub)?{_E}))",
        # (`mix archive.install hex phx_new`: a package from Hex, run by every later mix command)
        registry="hex",
        installs=("archive.install", "escript.install"),
    ),
    # Airflow's metadata database: every DAG run, task instance, connection and variable it holds
    _p(
        "airflow",
        R.INFRA_DESTROYER,
        destroys_one=rf"{_W}db\s+(?:reset|clean|downgrade){_E}|{_W}dags\s+delete{_E}",
        changes=rf"{_W}(?:db\s+(?:migrate|upgrade|reset|clean|downgrade)|dags\s+delete){_E}",
    ),
    _p(
        "alembic",
        R.INFRA_DESTROYER,
        destroys_one=rf"{_W}downgrade\s+base{_E}",
        changes=rf"{_W}(?:upgrade|downgrade|stamp){_E}",
    ),
    _p(
        "flyway",
        R.INFRA_DESTROYER,
        destroys_one=rf"{_W}clean{_E}",
        changes=rf"{_W}(?:migrate|clean|repair|undo|baseline){_E}",
    ),
    _p(
        "liquibase",
        R.INFRA_DESTROYER,
        destroys_one=rf"{_W}(?:drop-all|dropAll){_E}",
        changes=rf"{_W}(?:update\S*|rollback\S*|drop-all|dropAll){_E}",
    ),
    _p(
        "sqlx",
        R.INFRA_DESTROYER,
        destroys_one=rf"{_W}database\s+(?:drop|reset){_E}",
        changes=rf"{_W}(?:migrate\s+(?:run|revert)|database\s+(?:drop|reset|setup)){_E}",
    ),
    # Ethereum's tool chains: a transaction signed and sent, a contract deployed, a deploy script broadcast
    # (on the network `--rpc-url` or `--network` names: `mainnet` is production)
    _p("cast", R.INFRA_DESTROYER, changes=rf"{_W}(?:send|publish|mktx|rpc\s+eth_send\w*){_E}"),
    _p(  # `forge install OWNER/REPO`: a library taken from GitHub by its repository, compiled into contracts
        "forge",
        R.BUILDS,
        registry="github",
        installs=("install",),
        changes=rf"{_W}script{_E}.*{_W}--broadcast{_E}|{_W}create{_E}",
    ),
    # `nextflow run OWNER/REPO`: a pipeline taken from GitHub by its repository, and run at once
    _p("nextflow", R.BUILDS, registry="github", installs=("run", "pull"), runs_package=("run",)),
    _p("hardhat", R.BUILDS, changes=rf"{_W}(?:run|deploy|ignition\s+deploy){_E}"),
    _p(
        "diesel",
        R.INFRA_DESTROYER,
        destroys_one=rf"{_W}database\s+reset{_E}|{_W}migration\s+(?:redo|revert)\s+--all{_E}",
        changes=rf"{_W}(?:migration\s+(?:run|revert|redo)|database\s+(?:reset|setup)){_E}",
    ),
    _p(
        "dbmate",
        R.INFRA_DESTROYER,
        destroys_one=rf"{_W}drop{_E}",
        changes=rf"{_W}(?:up|down|migrate|rollback|drop){_E}",
    ),
    _p(
        "goose",
        R.INFRA_DESTROYER,
        destroys_one=rf"{_W}reset{_E}",
        changes=rf"{_W}(?:up\S*|down\S*|reset|redo){_E}",
    ),
    _p(
        "firebase",
        R.INFRA_DESTROYER,
        aliases=("firebase-tools",),  # `npx firebase-tools deploy`
        deploys_to=("*.web.app", "*.firebaseapp.com"),
        # a `demo-` project exists only in the emulators: nothing of it is anyone's real data
        local_copy=rf"(?:{_W}--project|{_W}-P)(?:=|\s+)demo-[\w-]+{_E}",
        destroys_all=rf"{_W}firestore:delete{_E}.*--all-collections|{_W}database:remove{_E}",
        destroys_one=rf"{_W}(?:firestore:delete|functions:delete|hosting:disable|[\w:]+:destroy){_E}"
        rf"|{_W}delete\s+users?{_E}",  # (the admin SDK's account deletes)
        # `deploy`, and any `noun:verb` command that changes the project (`remoteconfig:rollback`,
        # `ext:install`, `functions:secrets:set`); `auth:export` reads every account out
        changes=rf"{_W}(?:deploy|auth:export|[\w:-]+:(?:delete|set|unset|disable|remove|clone|rollback|install"
        rf"|uninstall|update|destroy|publish|import|create|add|apply|reconfigure|prune|rotate|send)){_E}",
    ),
    # Hetzner Cloud's CLI: a server, volume, address or network deleted, a server reimaged (its disk wiped);
    # protections or backups taken off; a firewall opened to every address, or emptied (Hetzner then lets
    # every connection in); a rescue system or an SSH key that is not the user's own let in; an address moved
    _p(
        "hcloud",
        R.INFRA_DESTROYER,
        options=("-o", "--output", "--context", "--config", "-l", "--selector", "--poll-interval"),
        destroys_one=rf"{_W}(?:server|volume|primary-ip|floating-ip|load-balancer|network|firewall|image"
        rf"|certificate|placement-group|storage-box)\s+(?:delete|rebuild){_E}",
        # (a firewall taken off the servers it guarded lets everything in to them)
        disables=rf"{_W}(?:[\w-]+\s+)?(?:disable-protection|disable-backup|protection\s+disable){_E}"
        rf"|{_W}firewall\s+remove-from-resource{_E}",
        # (a rule for every address is any cloud CLI's: `limen.rules.commands`)
        grants=rf"{_W}firewall\s+(?:set-rules|replace-rules){_E}.*\[\s*\]"
        rf"|{_W}server\s+enable-rescue{_E}"
        rf"|{_W}ssh-key\s+create{_E}(?!.*--public-key-from-file[=\s]+(?:~|\$HOME|/home/[^/\s]+|/root)/\.ssh/)",
        live=rf"{_W}(?:(?:floating-ip|primary-ip)\s+(?:assign|unassign)|load-balancer\s+(?:add|remove)-target){_E}",
        changes=rf"{_W}[\w-]+\s+(?:create|delete|rebuild|update|poweroff|reset|shutdown|reboot|assign|unassign"
        rf"|attach|detach|add-rule|delete-rule|replace-rules|set-rules|enable-[\w-]+|disable-[\w-]+"
        rf"|change-[\w-]+){_E}",
    ),
    # Turso: a database, group or organisation destroyed, every token of one revoked (each client cut off),
    # someone added to the organisation
    _p(
        "turso",
        R.INFRA_DESTROYER,
        destroys_all=rf"{_W}(?:db|group|org)\s+destroy{_E}",
        destroys_one=rf"{_W}(?:db|group)\s+tokens\s+invalidate{_E}",
        grants=rf"{_W}org\s+members?\s+(?:add|invite){_E}",
        changes=rf"{_W}(?:db|group|org)\s+(?:create|destroy|update|transfer|tokens\s+invalidate|config\s+\w+){_E}",
    ),
    # Colmena and deploy-rs deploy NixOS hosts; `colmena exec -- CMD` runs CMD on every host it selects;
    # nixos-anywhere installs NixOS over whatever the target runs, formatting its disks
    _p(
        "colmena",
        R.INFRA_DESTROYER,
        options=("--on", "-f", "--config", "-p", "--parallel"),
        remote_runs=("exec",),
        changes=rf"{_W}(?:apply|exec|upload-keys){_E}",
    ),
    _p("nixos-anywhere", R.INFRA_DESTROYER, destroys_one=r"\S"),
    # disko partitions and formats the disks its file declares, wiping them, in every mode but mounting
    _p(
        "disko",
        R.INFRA_DESTROYER,
        options=("--mode", "-m", "--flake", "-f", "--arg", "--argstr", "--root-mountpoint"),
        destroys_one=rf"{_W}(?:--mode|-m)(?:=|\s+)(?!(?:mount|unmount){_E})\S",
    ),
    _p("disko-install", R.INFRA_DESTROYER, destroys_one=r"\S"),
    # sops: a recipient added to a file's keys (`sops --add-age KEY -r -i s.yaml`) reads every secret in it
    _p(
        "sops", R.SECURITY_CONTROL, grants=rf"{_W}--add-(?:age|pgp|kms|gcp-kms|azure-kv|hc-vault-transit){_E}"
    ),
    # Haskell's build tools install from Hackage and publish to it
    _p(
        "cabal",
        R.PACKAGE_INSTALLER,
        registry="hackage",
        installs=("install",),
        options=("--project-file", "--builddir", "-j", "--with-compiler", "-w", "--constraint"),
    ),
    _p(
        "stack",
        R.PACKAGE_INSTALLER,
        registry="hackage",
        installs=("install",),
        fetches_code=r"--(?:resolver|snapshot)[=\s]+\S*://",  # a snapshot at an address: its packages
        options=("--stack-yaml", "--resolver", "--snapshot", "--work-dir", "-j", "--jobs"),
    ),
    _p(
        "stripe",
        R.INFRA_DESTROYER,
        # (a subscription cancelled, money refunded, paid out, transferred or charged, in live mode: money and
        # customers, asked for; the CLI works in test mode unless told `--live`)
        destroys_one=rf"^(?=.*(?:{_W}--live{_E}|{_W}--api-key[=\s]+[rs]k_live_))(?:.*{_W}[\w-]+\s+(?:delete|cancel){_E}"
        rf"|.*{_W}(?:refunds|payouts|transfers|topups|charges|payment_intents|invoices)\s+"
        rf"(?:create|confirm|capture|pay){_E})",
        changes=rf"{_W}[\w-]+\s+(?:create|update|delete|cancel|pay|void|finalize){_E}",
    ),
    # Salesforce's CLI: metadata deployed with destructive changes, records deleted (a DELETE through its API
    # requests too), a permission set, a profile or a password given to a user, plugins installed (their code
    # runs inside the CLI); Apex run in an org changes it (what the code does is not read here)
    _p(
        "sf",
        R.INFRA_DESTROYER,
        aliases=("sfdx",),
        options=(
            *("-o", "--target-org", "-f", "--file", "-s", "--sobject", "-w", "--where", "-v", "--values"),
            *(
                "-q",
                "--query",
                "-n",
                "--name",
                "-b",
                "--on-behalf-of",
                "-x",
                "--manifest",
                "-d",
                "--source-dir",
            ),
            *("-m", "--metadata", "-a", "--alias", "-X", "--method"),
        ),
        destroys_one=rf"{_W}(?:data\s+delete\s+(?:record|bulk)|project\s+delete\s+source|org\s+delete"
        rf"\s+(?:sandbox|scratch)){_E}|{_W}--(?:pre|post)-destructive-changes{_E}"
        rf"|{_W}api\s+request\s+rest{_E}.*(?:-X|--method)[=\s]+DELETE{_E}",
        # (a permission set for someone else, or one named for administration; the user's own in a scratch
        # org is ordinary set-up)
        grants=rf"{_W}org\s+assign\s+permset(?:license)?{_E}.*(?:{_W}(?:--on-behalf-of|-b){_E}"
        rf"|(?i:admin|modify_?all|view_?all))|{_W}org\s+generate\s+password{_E}.*--on-behalf-of"
        rf"|{_W}data\s+(?:create|update)\s+record{_E}.*(?:-s|--sobject)[=\s]+(?:User|PermissionSetAssignment){_E}"
        rf".*(?:ProfileId|PermissionSetId)=",
        # (from an address, a repository, a folder or another publisher's scope; Salesforce's own aside)
        fetches_code=rf"{_W}plugins\s+install{_E}\s+(?:-\S+\s+)*(?:\S*://|git[@+]|\.|/|@(?!salesforce/))",
        changes=rf"{_W}(?:project\s+deploy\s+(?:start|quick|resume)|apex\s+run|data\s+(?:create|update|delete"
        rf"|upsert|import|bulk)\w*|org\s+(?:assign|generate|delete)|api\s+request){_E}",
    ),
    _p("expo", R.PACKAGE_INSTALLER, registry="npm", installs=("install", "add")),
    # (what it releases is `RELEASES`'; its environment variables changed for production)
    _p(
        "eas",
        R.INFRA_DESTROYER,
        destroys_one=rf"{_W}(?:channel|branch|update|env|secret|project|webhook):delete{_E}",
        changes=rf"{_W}(?:env|secret):(?:create|update|delete|push){_E}",
    ),
    _p(
        "fastlane",
        R.INFRA_DESTROYER,
        # every signing certificate and profile revoked (`match nuke`), a keychain deleted
        destroys_all=rf"{_W}match\s+nuke{_E}|{_W}(?:run\s+)?(?:delete_keychain|revoke_certificates?){_E}",
        changes=rf"{_W}(?:deliver|upload_to_app_store|upload_to_testflight|pilot|supply|upload_to_play_store"
        rf"|release|beta|match\s+nuke){_E}",
    ),
    _p(
        "wrangler",
        R.INFRA_DESTROYER,
        R.DATABASE_CLIENT,
        deploys_to=("*.workers.dev", "*.pages.dev"),
        # Cloudflare: a worker, a KV namespace, an R2 bucket or a D1 database deleted whole
        destroys_all=rf"{_W}(?:r2\s+bucket|kv\s+namespace|kv:namespace|kv\s+bulk|kv:bulk|d1|queues|vectorize)"
        rf"\s+delete{_E}"
        rf"|^(?:-\S+\s+(?:[^-\s]\S*\s+)?)*delete{_E}",  # `wrangler delete`: the worker itself
        destroys_one=rf"{_W}(?:r2\s+object|kv\s+key|kv:key|secret)\s+delete{_E}",
        # D1's commands work on the local copy unless told `--remote`; the others when told `--local`
        local_copy=rf"{_W}--local{_E}|^(?!.*{_W}--remote{_E}).*{_W}d1\s+(?:execute|migrations\s+apply){_E}",
        changes=rf"{_W}(?:deploy|publish|delete|rollback|secret\s+(?:put|bulk)|versions\s+deploy"
        rf"|d1\s+(?:execute|migrations\s+apply|time-travel\s+restore)|r2\s+object\s+put|kv\s+(?:key|bulk)\s+put"
        rf"|triggers\s+deploy){_E}",
        # a bucket served to anyone (its r2.dev address, a custom domain, a CORS rule for every origin)
        grants=rf"{_W}r2\s+bucket\s+(?:dev-url\s+enable|domain\s+add){_E}",
        # the top level of its configuration is production: a change names another environment to be one
        default_production=True,
        options=(
            "--command",
            "--file",
            "--name",
            "--env",
            "-e",
            "--namespace-id",
            "--binding",
            "-c",
            "--config",
        ),
        code_options=("--command",),
    ),
    _p(
        "flyctl",
        R.INFRA_DESTROYER,
        aliases=("fly",),
        deploys_to=("*.fly.dev",),
        options=(
            "-a",
            "--app",
            "-c",
            "--config",
            "-r",
            "--region",
            "-s",
            "--select",
            "--machine",
            "-o",
            "--org",
        ),
        destroys_all=rf"{_W}(?:apps\s+)?destroy{_E}",
        # a volume's data, a domain's certificate, an app's public address or database attachment removed
        destroys_one=rf"{_W}(?:volumes?\s+(?:destroy|delete|rm)|certs\s+(?:remove|delete|rm)|ips\s+release"
        rf"|postgres\s+detach|machines?\s+destroy){_E}",
        changes=rf"{_W}(?:deploy|destroy|scale\s+(?:count|vm|memory)|secrets\s+(?:set|unset|import)"
        rf"|machine\s+(?:run|destroy|stop|exec)"
        rf"|ssh\s+console{_E}.*(?:-C|--command)|orgs\s+invite|postgres\s+connect){_E}",
        # an app scaled to no machine at all: nothing answers its users any more
        live=rf"{_W}scale\s+count\s+0{_E}",
        remote_options=("-C", "--command"),
    ),
    # a restore that drops each object before making it again, into a production database
    _p(
        "pg_restore",
        R.INFRA_DESTROYER,
        destroys_one=rf"(?=.*{_W}(?:--clean|-c){_E})(?=.*(?i:prod|production|prd))",
    ),
    _p(
        "psql",
        R.DATABASE_CLIENT,
        options=("-c", "--command", "-d", "--dbname", "-h", "--host", "-p", "--port", "-U", "--username"),
        code_options=("-c", "--command"),
        # the Supabase CLI's local stack (`supabase start`): its database on this machine's port 54322
        local_copy=r"(?:@|^|\s)(?:localhost|127\.0\.0\.1|\[::1\]):54322/"
        r"|^(?=.*(?:-h|--host)[=\s]+(?:localhost|127\.0\.0\.1)\b)(?=.*(?:-p|--port)[=\s]+54322\b)",
    ),
    _p(
        "mysql",
        R.DATABASE_CLIENT,
        aliases=("mariadb",),
        options=("-e", "--execute", "-h", "-u", "-P", "-D"),
        code_options=("-e", "--execute"),
    ),
    _p(
        "sqlite3",
        R.DATABASE_CLIENT,
        R.EMBEDDED_DATABASE,
        options=("-cmd", "-init", "-separator"),
        code_options=("-cmd",),
    ),
    _p("duckdb", R.DATABASE_CLIENT, R.EMBEDDED_DATABASE, options=("-cmd", "-c"), code_options=("-cmd", "-c")),
    # (its password or protected mode taken off: anyone who reaches the port may then read and write)
    _p(
        "redis-cli",
        R.DATABASE_CLIENT,
        options=("-h", "-p", "-a", "-n", "-u"),
        disables=rf"(?i){_W}config\s+set\s+(?:requirepass(?:\s+(?:''|\"\"))?\s*$|protected-mode\s+no{_E})",
        # an ACL user let run every command (`+@all`, `allcommands`)
        grants=rf"(?i){_W}acl\s+setuser{_E}.*(?:\+@all|{_W}allcommands{_E})",
    ),
    _p("mongosh", R.DATABASE_CLIENT, aliases=("mongo",), options=("--eval",), code_options=("--eval",)),
    # Kafka's tools: topics deleted (every one, for a pattern that matches all), a cluster that lets in
    # whoever no ACL names, an ACL for every principal
    _p(
        "kafka-topics",
        R.INFRA_DESTROYER,
        aliases=("kafka-topics.sh",),
        destroys_all=rf"{_W}--delete{_E}.*--topic[=\s]+['\"]?(?:\.\*|\*|\.\+)['\"]?(?:{_E}|$)"
        rf"|--topic[=\s]+['\"]?(?:\.\*|\*|\.\+)['\"]?\s.*{_W}--delete{_E}",
        destroys_one=rf"{_W}--delete{_E}",
        changes=rf"{_W}--(?:delete|alter|create){_E}",
        local_copy=_LOCAL_BROKER,
    ),
    # a consumer group's read positions moved (messages skipped or read again), a topic's records deleted
    _p(
        "kafka-consumer-groups",
        R.INFRA_DESTROYER,
        aliases=("kafka-consumer-groups.sh",),
        destroys_one=rf"(?=.*{_W}--reset-offsets{_E})(?=.*{_W}--execute{_E})|{_W}--delete(?:-offsets)?{_E}",
        changes=rf"{_W}--(?:reset-offsets|delete|delete-offsets){_E}",
        local_copy=_LOCAL_BROKER,
    ),
    _p(
        "kafka-delete-records",
        R.INFRA_DESTROYER,
        aliases=("kafka-delete-records.sh",),
        destroys_one=r"--offset-json-file",
        local_copy=_LOCAL_BROKER,
    ),
    _p(
        "kafka-configs",
        R.INFRA_DESTROYER,
        aliases=("kafka-configs.sh",),
        grants=r"allow\.everyone\.if\.no\.acl\.found\s*=\s*true",
        changes=rf"{_W}--alter{_E}",
    ),
    _p(
        "kafka-acls",
        R.INFRA_DESTROYER,
        aliases=("kafka-acls.sh",),
        grants=r"--allow-principal[=\s]+['\"]?User:\*",
        changes=rf"{_W}--(?:add|remove){_E}",
    ),
    _p("clickhouse-client", R.DATABASE_CLIENT, options=("--query", "-q"), code_options=("--query", "-q")),
    _p(
        "snowsql",
        R.DATABASE_CLIENT,
        options=(
            *("-q", "--query", "-c", "--connection", "-a", "--accountname", "-u", "--username", "-d"),
            *("--dbname", "-s", "--schemaname", "-r", "--rolename", "-w", "--warehouse", "-f", "--filename"),
        ),
        code_options=("-q", "--query"),
    ),
    # local clusters and virtual machines: deleting one deletes this machine's copy
    _p("minikube", R.INFRA_DESTROYER, aliases=("kind", "k3d", "colima", "multipass", "lima", "limactl")),
    _p(
        "sqlcmd",  # SQL Server's client: its query options are T-SQL, judged as psql's SQL is
        R.DATABASE_CLIENT,
        options=("-S", "-d", "-U", "-P", "-Q", "-q", "-i", "-o", "-G"),
        code_options=("-Q", "-q"),
    ),
    _p(
        "cqlsh",
        R.DATABASE_CLIENT,
        options=("-e", "--execute", "-u", "-p", "-k"),
        code_options=("-e", "--execute"),
    ),
    # ------------------------------------------------------------------ disks and processes
    _p("mkfs", R.BLOCK_DEVICE, aliases=("mke2fs", "mkswap", "mkntfs", "newfs", "wipefs"), family=True),
    _p("dd", R.BLOCK_DEVICE),
    _p("blkdiscard", R.BLOCK_DEVICE),
    _p("fdisk", R.BLOCK_DEVICE, R.PARTITIONS, aliases=("sfdisk", "parted", "gdisk", "sgdisk")),
    _p("cryptsetup", R.BLOCK_DEVICE),
    # (`zfs rollback -r` destroys the snapshots taken after the one it goes back to, with what they held)
    _p(
        "zpool",
        R.STORAGE_DESTROYER,
        aliases=("zfs",),
        destroys_one=rf"{_W}rollback\s+(?:-\w+\s+)*-[a-zA-Z]*[rR]",
    ),
    # an account deleted with its home and mail (`userdel -r`); a mail queue emptied; a file system's log
    # zeroed by its repair (what it held of the last writes is lost)
    _p(
        "userdel",
        R.ADMINISTERS,
        aliases=("deluser",),
        destroys_one=rf"{_W}(?:-[a-zA-Z]*r[a-zA-Z]*|--remove\S*){_E}",
    ),
    _p("postsuper", R.ADMINISTERS, destroys_one=rf"{_W}-d\s+ALL{_E}"),
    _p("xfs_repair", R.ADMINISTERS, destroys_one=rf"{_W}-L{_E}"),
    # (a volume shrunk loses what lay beyond its new end, as one removed loses all)
    _p("lvremove", R.STORAGE_DESTROYER, aliases=("vgremove", "pvremove", "lvreduce")),
    # (what stops a service or fences a host `changes` it: asked for on a host named production)
    _p("kill", R.PROCESS_KILLER, aliases=("pkill", "killall", "killall5"), changes=r"^(?!.*(?:^|\s)-0\b)"),
    _p("fuser", R.PROCESS_KILLER, options=("-n", "--namespace")),  # `fuser -k FILE`: who holds it, killed
    _p("shutdown", R.POWER, aliases=("reboot", "halt", "poweroff")),
    # security controls: firewalls, mandatory access control, auditing, endpoint agents, exploit mitigations
    _p(
        "iptables",
        R.SECURITY_CONTROL,
        aliases=("ip6tables",),
        disables=rf"{_W}(?:-F|--flush|-X|--delete-chain){_E}|-P\s+\w+\s+ACCEPT",
        changes=rf"{_W}(?:-[AIDRFXPNE]|--(?:append|insert|delete|replace|flush|policy|new-chain)){_E}",
    ),
    _p(
        "nft",
        R.SECURITY_CONTROL,
        disables=rf"{_W}flush\s+ruleset{_E}|{_W}delete\s+table{_E}",
        changes=rf"{_W}(?:add|insert|delete|flush|replace|create|-f){_E}",
    ),
    _p(
        "ufw",
        R.SECURITY_CONTROL,
        disables=rf"{_W}(?:disable|reset){_E}",
        changes=rf"{_W}(?:allow|deny|reject|limit|delete|insert|enable|disable|reset|default){_E}",
    ),
    _p("setenforce", R.SECURITY_CONTROL, disables=rf"{_W}(?:0|[Pp]ermissive){_E}"),
    # firewalld: every connection let in (the `trusted` zone made the default, a source or an interface put
    # in it, the panic mode's block taken off is ordinary), or its rules dropped
    _p(
        "firewall-cmd",
        R.SECURITY_CONTROL,
        disables=rf"{_W}--set-default-zone[=\s]+trusted{_E}|{_W}--zone[=\s]+trusted{_E}.*{_W}--(?:add|change)-"
        rf"(?:source|interface){_E}|{_W}--(?:add|change)-(?:source|interface){_E}.*{_W}--zone[=\s]+trusted{_E}",
        changes=rf"{_W}--(?:add|remove|change|set|new|delete|reload|complete-reload|permanent|runtime-to-permanent)",
    ),
    # a RHEL-like host's system-wide cryptography: FIPS mode switched off, or the policy made one that accepts
    # broken algorithms and short keys (`LEGACY`, `DEFAULT:SHA1`)
    _p(
        "fips-mode-setup",
        R.SECURITY_CONTROL,
        disables=rf"{_W}--disable{_E}",
        changes=rf"{_W}--(?:enable|disable){_E}",
    ),
    _p(
        "update-crypto-policies",
        R.SECURITY_CONTROL,
        disables=rf"{_W}--set[=\s]+(?:LEGACY|[\w:-]*SHA1|[\w:-]*NO-ENFORCE-EMS){_E}",
        changes=rf"{_W}--set{_E}",
    ),
    # Sysinternals' Sysmon, Windows' event recorder of processes and connections: `-u` uninstalls it
    _p(
        "sysmon",
        R.SECURITY_CONTROL,
        aliases=("sysmon64",),
        disables=rf"{_W}-u{_E}",
        changes=rf"{_W}-[ciu]{_E}",
    ),
    _p("aa-teardown", R.SECURITY_CONTROL, disables=r"^"),  # any invocation unloads every AppArmor profile
    # SELinux's policy tool: a domain made permissive is no longer confined; logins, users and booleans
    # mapped anew change what each may do
    _p(
        "semanage",
        R.SECURITY_CONTROL,
        disables=rf"{_W}permissive\s+(?:-a|--add){_E}",
        changes=rf"{_W}(?:login|user|boolean|permissive|port|fcontext|module){_E}",
    ),
    # the PAM profile of a RHEL-like host: a feature switched off (`with-faillock`, `with-pamaccess`) takes
    # that check away from every login
    _p(
        "authselect",
        R.SECURITY_CONTROL,
        disables=rf"{_W}disable-feature{_E}",
        changes=rf"{_W}(?:select|enable-feature){_E}",
    ),
    # Secure Boot's shim: with validation off, any kernel and module boots
    _p(
        "mokutil",
        R.SECURITY_CONTROL,
        disables=rf"{_W}--disable-validation{_E}",
        changes=rf"{_W}--(?:import|delete|reset){_E}",
    ),
    _p("auditctl", R.SECURITY_CONTROL, disables=rf"{_W}-D{_E}|{_W}-e\s+0{_E}"),
    _p(
        "systemctl",
        R.SECURITY_CONTROL,
        # a host's security agent, and the remote access the user administers the machine by
        # (a variant's unit too: `falco-modern-bpf.service`)
        disables=rf"{_W}(?:stop|disable|mask|kill){_E}.*{_W}(?:{GUARD_SERVICES}(?:-[\w@-]+)?|sshd?|limen[\w@.-]*)"
        rf"(?:\.service|\.socket|\.timer)?{_E}",
        changes=rf"{_W}(?:stop|disable|mask|kill|isolate|poweroff|halt|reboot|rescue|emergency){_E}",
        inspects=r"^(?:--\S+\s+)*(?:status|is-active|is-enabled|is-failed|list-units|list-unit-files|list-timers"
        r"|show|cat)(?:\s|$)",
    ),
    _p(
        "service",
        R.SECURITY_CONTROL,
        disables=rf"{_W}(?:{GUARD_SERVICES}(?:-[\w@-]+)?|sshd?|limen[\w@.-]*){_E}\s+(?:stop|disable){_E}",
        changes=rf"\S+\s+stop{_E}",
    ),
    _p("sysctl", R.SECURITY_CONTROL, disables=r"kernel\.(?:randomize_va_space|yama\.ptrace_scope)\s*=\s*0"),
    # macOS's service manager and Microsoft Defender's own switch: the host's security agent stopped
    # (`launchctl setenv DYLD_INSERT_LIBRARIES x.dylib`: a library loaded into every app launchd starts)
    _p(
        "launchctl",
        R.SECURITY_CONTROL,
        R.LOADS_CODE,
        disables=rf"{_W}(?:unload|bootout|disable|remove|stop|kill){_E}.*{GUARD_SERVICES}",
        loads_library=r"\bsetenv\s+DYLD_(?:INSERT_LIBRARIES|LIBRARY_PATH|FRAMEWORK_PATH)\s+\S",
    ),
    # macOS's disks, backups, disk encryption and packet filter: a disk or volume erased, the local backups
    # deleted, FileVault or the packet filter switched off (`pfctl -F all` empties its rules)
    _p(
        "diskutil",
        R.INFRA_DESTROYER,
        destroys_all=rf"{_W}(?:erase(?:Disk|Volume)|zeroDisk|randomDisk|secureErase|reformat|partitionDisk"
        rf"|apfs\s+(?:delete(?:Volume|Container)|eraseVolume)|cs\s+delete){_E}",
    ),
    _p(
        "tmutil",
        R.INFRA_DESTROYER,
        R.SECURITY_CONTROL,
        destroys_all=rf"{_W}(?:delete|deletelocalsnapshots|thinlocalsnapshots|delete-backups){_E}",
        disables=rf"{_W}(?:disable|disablelocal){_E}",
    ),
    _p("fdesetup", R.SECURITY_CONTROL, disables=rf"{_W}disable{_E}"),
    _p("pfctl", R.SECURITY_CONTROL, disables=rf"(?:^|\s)-\w*d\w*{_E}|(?:^|\s)-F\s+(?:all|rules){_E}"),
    _p(
        "mdatp",
        R.SECURITY_CONTROL,
        disables=rf"{_W}config\s+(?:real-time-protection|behavior-monitoring|cloud-delivered-protection|"
        rf"network-protection\s+enforcement-level)\b.*(?:--value[=\s]+(?:disabled|audit)|{_W}disabled{_E})",
    ),
    _p("csrutil", R.SECURITY_CONTROL, disables=rf"{_W}disable{_E}"),
    _p("spctl", R.SECURITY_CONTROL, disables=rf"{_W}--master-disable{_E}|{_W}--global-disable{_E}"),
    # macOS marks what was downloaded for Gatekeeper's check before it first runs: taking the mark off (or
    # every attribute, `-c`) lets an unsigned download run unchecked (a path outside the project: the
    # project's own build output was never downloaded)
    _p(
        "xattr",
        R.METADATA,
        disables=rf"{_W}-[a-z]*(?:d[a-z]*\s+com\.apple\.quarantine|c[a-z]*)\s+(?:-\S+\s+)*[\"']?[/~$]",
    ),
    # macOS: the application firewall, and settings that turn a check of the system's or of Xcode's off
    # (Gatekeeper's re-arming, quarantine, a validation skipped: `IDESkipMacroFingerprintValidation YES`)
    _p("socketfilterfw", R.SECURITY_CONTROL, disables=rf"{_W}--setglobalstate\s+off{_E}"),
    _p(
        "defaults",
        R.SECURITY_CONTROL,
        disables=rf"{_W}write{_E}.*\s\w*(?:Skip|Disable)\w*(?:Validat|Verif|Check|Sign|Quarantine)\w*"
        rf"\s+(?:-bool(?:ean)?\s+)?(?:YES|true|1){_E}"
        rf"|{_W}write{_E}.*\s(?:GKAutoRearm|LSQuarantine|globalstate|\w*(?:Validation|Verification)Enabled"
        # (the system's security updates: XProtect's and MRT's data, critical fixes)
        rf"|CriticalUpdateInstall|ConfigDataInstall|AutomaticCheckEnabled"
        # (the password asked when the screen wakes, and the FileVault login kept from logging in by itself)
        rf"|askForPassword|DisableFDEAutoLogin)"
        rf"\s+(?:-\w+\s+)?(?:NO|false|0){_E}"
        rf"|{_W}write{_E}.*\sautoLoginUser{_E}",
        # a script loginwindow runs as root at every login or logout
        schedules=rf"{_W}write{_E}\s+\S*com\.apple\.loginwindow\s+(?:LoginHook|LogoutHook){_E}",
    ),
    # Windows' own administration tools (run from WSL, Git Bash or `cmd /c`; a key's `\` may be lost to
    # the shell, so each is optional). The registry: a program set to start with the user or the machine
    # (the Run keys, Winlogon's, a debugger attached to a program, a file type's or a settings page's open
    # command, a service's image), and a protection's policy switched off (`Disable*` set to 1, `Enable*`
    # to 0)
    _p(
        "reg",
        R.SECURITY_CONTROL,
        schedules=r"(?i)^add\s.*(?:CurrentVersion\\?(?:Run|RunOnce|RunOnceEx|RunServices|RunServicesOnce|"
        r"Policies\\?Explorer\\?Run)\b|Winlogon|Image File Execution Options|shell\\?open\\?command"
        r"|AppInit_DLLs|UserInitMprLogonScript|Command Processor|CurrentControlSet\\?Services\\?)",
        # (a protocol long broken switched back on; any installer run as SYSTEM)
        grants=r"(?i)^add\s.*(?:SCHANNEL\\?Protocols\\?(?:SSL [23]\.0|TLS 1\.[01])\b.*\s/v\s+\"?Enabled"
        r"|AlwaysInstallElevated)\b.*\s/d\s+\"?(?:0x)?0*1\b",
        disables=rf"(?i)^add\s.*{_WINDOWS_PROTECTIONS}.*\s/v\s+\"?(?:Disable\w*|\w+Disabled?)\"?\s.*/d\s+\"?(?:0x)?0*1\b"
        rf"|^add\s.*{_WINDOWS_PROTECTIONS}.*\s/v\s+\"?(?:Enable\w*|\w+Enabled?|\w*PPL|\w*Protect\w*)\"?\s.*/d\s+\"?(?:0x)?0+\b",
    ),
    _p(
        "netsh",
        R.SECURITY_CONTROL,
        disables=r"(?i)\badvfirewall\s+set\s+\S+\s+state\s+off\b|\bfirewall\s+set\s+opmode\s+(?:mode=)?disable",
        schedules=r"(?i)^add\s+helper\b",  # a helper DLL, loaded whenever netsh runs
        changes=r"(?i)\b(?:advfirewall|firewall)\b.*\b(?:set|add|delete|reset)\b",
    ),
    # accounts: one added, or put in a group that administers the machine or logs in to it remotely
    _p(
        "net",
        R.SECURITY_CONTROL,
        grants=r"(?i)^(?:user|localgroup|group)\b.*\s/add\b|^user\s.*\s/active:yes\b",
        disables=rf"(?i)^stop\s+\"?{HOST_SECURITY_AGENTS}\b",
    ),
    _p(
        "sc",
        R.SECURITY_CONTROL,
        R.INFRA_DESTROYER,
        destroys_one=r"(?i)^(?:\\\\\S+\s+)?delete\b",  # a service unregistered
        schedules=r"(?i)^(?:\\\\\S+\s+)?(?:create\b|config\b.*\b(?:binPath|start)=\s*\S)",
        disables=rf"(?i)^(?:\\\\\S+\s+)?(?:stop|delete)\s+\"?{HOST_SECURITY_AGENTS}\b"
        rf"|^(?:\\\\\S+\s+)?config\s+\"?{HOST_SECURITY_AGENTS}\"?\s.*start=\s*disabled",
    ),
    _p("schtasks", R.SECURITY_CONTROL, schedules=r"(?i)(?:^|\s)/create\b|(?:^|\s)/change\b.*\s/tr\b"),
    # the boot's own recovery and signature checks, the machine's event logs and audit policy
    _p(
        "bcdedit",
        R.SECURITY_CONTROL,
        disables=r"(?i)\brecoveryenabled\s+no\b|\bbootstatuspolicy\s+ignoreallfailures\b"
        r"|\b(?:testsigning|nointegritychecks)\s+on\b",
    ),
    # POSIX access lists: a named user or group, or everyone else, given write on what it names
    _p(
        "setfacl",
        R.WRITES,
        R.METADATA,
        grants=r"(?:^|\s)(?:-[a-zA-Z]*m|--modify)[=\s]+\S*?(?:(?:^|[,\s])(?:o|other)::?|(?:u|user|g|group):[^:,\s]+:)[r-]?w",
    ),
    _p("wevtutil", R.SECURITY_CONTROL, disables=r"(?i)^(?:cl|clear-log)\b|^(?:sl|set-log)\b.*/e:false\b"),
    _p("auditpol", R.SECURITY_CONTROL, disables=r"(?i)/(?:clear|remove)\b|:disable\b"),
    _p(
        "icacls",
        R.SECURITY_CONTROL,
        grants=r"(?i)/grant(?::r)?\s+\"?(?:Everyone|\*S-1-1-0|\*S-1-5-11|Users|Authenticated Users|"
        r"BUILTIN\\?Users)\"?:\(?(?:\([A-Z]+\))*\(?(?:F|M|W)\b",
    ),
    # macOS's directory of accounts: an account made an administrator, or hidden; the rights database
    # rewritten (`security authorizationdb write system.privilege.admin allow`)
    _p(
        "dseditgroup",
        R.SECURITY_CONTROL,
        grants=rf"{_W}-o\s+(?:edit|create){_E}.*{_W}(?:admin|wheel|_lpadmin|com\.apple\.access_ssh){_E}",
    ),
    _p(
        "dscl",
        R.SECURITY_CONTROL,
        grants=rf"{_W}-?(?:append|create|merge){_E}\s+/Groups/(?:admin|wheel){_E}"
        rf"|{_W}-?(?:append|create|merge){_E}\s+/Users/\S+\s+(?:IsHidden|UniqueID\s+0|PrimaryGroupID\s+0){_E}",
    ),
    # (Apple's code-signing enforcement, kept in the firmware's boot arguments)
    _p(
        "nvram", R.SECURITY_CONTROL, disables=r"boot-args=.*(?:amfi_get_out_of_my_way|cs_enforcement_disable)"
    ),
    # the unified log erased or switched off for a subsystem
    _p("log", R.SECURITY_CONTROL, disables=rf"{_W}erase{_E}|{_W}config{_E}.*level:off"),
    # every web connection of the machine sent through a proxy
    _p(
        "networksetup",
        R.SECURITY_CONTROL,
        reroutes=rf"{_W}-set(?:secure)?webproxy{_E}|{_W}-setsocksfirewallproxy{_E}|{_W}-setautoproxyurl{_E}",
    ),
    _p(
        "sysadminctl",
        R.SECURITY_CONTROL,
        R.INFRA_DESTROYER,
        disables=rf"{_W}-screenLock\s+off{_E}",
        grants=rf"{_W}-addUser{_E}.*{_W}-admin{_E}|{_W}-secureTokenOn{_E}",
        destroys_one=rf"{_W}-deleteUser{_E}",  # an account and, with it, its home folder
    ),
    # (the user's own keychain deleted: every password and identity in it, gone; a CI runner's temporary
    # keychain is made and deleted by every signing job)
    # (and a root certificate trusted for every connection the machine makes: whoever holds its key reads
    # and changes them)
    _p(
        "security",
        R.SECURITY_CONTROL,
        grants=rf"{_W}authorizationdb\s+write{_E}",
        destroys_one=rf"{_W}delete-keychain(?:\s+\S*(?:Library/Keychains/|login\.keychain)\S*)?\s*$",
        # (and a keychain's keys opened to any unsigned program: `set-key-partition-list -S ...,unsigned:`)
        disables=rf"{_W}add-trusted-cert{_E}.*{_W}trustRoot{_E}|{_W}set-key-partition-list{_E}.*\bunsigned:",
    ),
    _p("trust", R.SECURITY_CONTROL, disables=rf"^anchor{_E}"),  # p11-kit's: a system-wide trust anchor
    _p("certutil", R.SECURITY_CONTROL, disables=r"(?i)-addstore\s+(?:-\w+\s+)*[\"']?root\b"),
    # build tools: what they run is the project's own build file; the checks of what they download
    *(
        _p(
            name,
            R.BUILDS,
            disables=r"--dependency-verification[=\s]+(?:off|lenient)|dependency\.verification=(?:off|lenient)"
            r"|-Dmaven\.wagon\.http\.ssl\.insecure=true|--no-verify-checksums|-Dchecksum\.policy=ignore",
            # a database migration tool's wipe run as a build task (`gradlew flywayClean`, `mvn flyway:clean`)
            destroys_one=rf"{_W}(?:flywayClean|flyway:clean|liquibaseDropAll|liquibase:dropAll|liquibase:drop-all){_E}",
            options=_GRADLE_SCRIPT_OPTIONS if name.startswith("gradle") else (),
            script_options=_GRADLE_SCRIPT_OPTIONS if name.startswith("gradle") else (),
        )
        for name in ("gradle", "gradlew", "mvn", "mvnw")
    ),
    *(
        _p(name, R.BUILDS)
        for name in (
            *("make", "gmake", "cmake", "ninja", "meson", "ant"),
            *("bazel", "bazelisk", "just", "task", "rake", "scons", "xmake", "buck2", "dune"),
        )
    ),
    # database clients, dump and restore tools: `-h HOST` / `--host=HOST` is the server they connect to
    *(
        _p(name, R.SERVER_CLIENT)
        for name in (
            *("mysql", "mariadb", "mysqldump", "mysqladmin", "psql", "pg_dump", "pg_dumpall", "pg_restore"),
            *("redis-cli", "mongosh", "mongo", "mongodump", "mongorestore", "mongoexport", "mongoimport"),
        )
    ),
    *_CMDLETS,
)


def _merged(known: Program, entry: Program) -> Program:
    """One program listed twice (say `od`: a reader, and a reader with options): roles and option sets
    united, every other fact taken from whichever entry gives it. Two entries that give the same fact
    differently are a mistake in the table, refused at import (the later one would silently lose)."""
    values: dict[str, object] = {}
    for spec in fields(Program):
        ours, theirs = getattr(known, spec.name), getattr(entry, spec.name)
        if spec.name in ("name", "aliases"):
            values[spec.name] = theirs
        elif isinstance(ours, frozenset):
            values[spec.name] = ours | theirs
        elif ours == spec.default or ours == theirs:
            values[spec.name] = theirs
        elif theirs == spec.default:
            values[spec.name] = ours
        else:
            raise ValueError(f"program table: {entry.name!r} gives {spec.name} twice, differently")
    return Program(**values)  # type: ignore[arg-type]


def _index(programs: Iterable[Program]) -> dict[str, Program]:
    table: dict[str, Program] = {}
    for entry in programs:
        for name in (entry.name, *entry.aliases):
            known = table.get(name)
            table[name] = entry if known is None else _merged(known, entry)
    return table


BY_NAME: dict[str, Program] = _index(PROGRAMS)
_VERSIONED = re.compile(r"([A-Za-z][A-Za-z_-]*?)(?:[0-9][0-9.]*|\.[A-Za-z0-9]+)")


@functools.lru_cache(maxsize=2048)
def program(name: str) -> Program | None:
    """The entry for a command's base name (`python3.11` and `mkfs.ext4` through their family)."""
    found = BY_NAME.get(name)
    if found is not None:
        return found
    match = _VERSIONED.fullmatch(name)
    if match is not None:
        base = BY_NAME.get(match.group(1))
        if base is not None and base.family:
            return base
    return None


# What a program that only inspects may also be: a reader, a filter, a printer, a finder of programs or of
# processes
_INSPECTING_ROLES = frozenset(
    {Role.INSPECTS, Role.READS, Role.TEXT_ONLY, Role.FILTER, Role.SCRIPT_FIRST, Role.LOCATES_PROGRAM}
    | {Role.FINDS_PROCESSES}
)


def verifies(argv: Sequence[str]) -> bool:
    """`argv` (its name a base name) checks a signature, a checksum or a provenance (`Program.verifies`)."""
    entry = program(argv[0])
    return (
        entry is not None
        and bool(entry.verifies)
        and re.search(entry.verifies, " ".join(argv[1:])) is not None
    )


@functools.lru_cache(maxsize=1024)
def only_inspects(argv: tuple[str, ...]) -> bool:
    """`argv` (its name a base name) only reads and prints: an `INSPECTS` program and nothing more (`rg`,
    also run as `grep`, runs its `--pre` option), or the invocations `inspects` names (`git status`)."""
    entry = program(argv[0])
    if entry is None:
        return False
    if Role.INSPECTS in entry.roles:
        return entry.roles <= _INSPECTING_ROLES and not entry.command_options
    return bool(entry.inspects) and re.search(entry.inspects, " ".join(argv[1:])) is not None


# Programs that run one of their arguments as code or as a command: downloaded data given to one runs
_RUNS_ARGUMENTS = frozenset(
    {Role.SHELL, Role.INTERPRETER, Role.SCRIPT_HOST, Role.WRAPPER, Role.RUNNER, Role.RUNS_OPTION}
    | {Role.REMOTE_LOGIN}
)


def runs_arguments(name: str) -> bool:
    """`name` runs one of its arguments (a shell's `-c`, an interpreter's code, `sudo CMD`, `ssh HOST CMD`).
    A program the table does not know is taken to read its arguments as data, as nearly all do."""
    found = program(name.rsplit("/", 1)[-1])
    return found is not None and bool(found.roles & _RUNS_ARGUMENTS)


def has(name: str, role: Role) -> bool:
    """The command `name` plays `role`."""
    found = program(name)
    return found is not None and role in found.roles


@functools.lru_cache(maxsize=64)
def names(*roles: Role) -> frozenset[str]:
    """Every listed name (aliases included) of the programs playing any of `roles`."""
    return frozenset(name for name, entry in BY_NAME.items() if entry.roles & set(roles))


def options(name: str) -> frozenset[str]:
    """The options of `name` that take a value."""
    found = program(name)
    return found.options if found is not None else frozenset()


# Environment variables that load code into every program started with them (a library preloaded, a start-up
# script, an interpreter option that requires a module): what they load is not on the command line.
CODE_LOADING_VARIABLES = frozenset(
    {
        *("LD_PRELOAD", "LD_AUDIT", "DYLD_INSERT_LIBRARIES", "DYLD_LIBRARY_PATH", "BASH_ENV", "ENV"),
        *("PYTHONSTARTUP", "PERL5OPT", "RUBYOPT", "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "NODE_OPTIONS"),
    }
)
# Where programs look for the code they load, and which certificates they trust: set in a start-up file, a
# folder someone can write becomes part of every program run from then on, or a certificate of theirs is
# believed for every connection (set for one command, `PYTHONPATH=src pytest`, they are ordinary)
SEARCH_PATH_VARIABLES = frozenset(
    {
        *("PYTHONPATH", "PYTHONHOME", "PYTHONUSERBASE", "PERL5LIB", "PERLLIB", "RUBYLIB", "NODE_PATH"),
        *("CLASSPATH", "LD_LIBRARY_PATH", "GCONV_PATH", "ZDOTDIR", "GIT_EXEC_PATH", "GIT_TEMPLATE_DIR"),
        *("LUA_PATH", "LUA_CPATH", "R_LIBS", "R_LIBS_USER", "JULIA_LOAD_PATH", "GEM_PATH", "PSModulePath"),
        *("SSL_CERT_FILE", "SSL_CERT_DIR", "REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE", "NODE_EXTRA_CA_CERTS"),
        *("GIT_SSL_CAINFO", "AWS_CA_BUNDLE", "PIP_CERT", "CARGO_HTTP_CAINFO"),
    }
)
# Options in those variables that are only settings, never code (`NODE_OPTIONS=--max-old-space-size=4096`).
# Programs that serve a folder's files to the network, and the options that name the folder ("" : the first
# operand; none given: the working directory). The interpreters' servers are keyed by how they are started
# (`python -m http.server`), which no program name can be.
FILE_SERVERS: dict[str, tuple[str, ...]] = {
    "http-server": ("",),
    "serve": ("",),
    "darkhttpd": ("",),
    "httpd": ("-h",),  # busybox httpd
    "caddy": ("--root", "-r"),
    "twistd": ("--path",),
    "python -m http.server": ("--directory", "-d"),
    "php -S": ("-t", "--docroot"),
    "ruby -run -e httpd": ("",),
}
SETTING_ONLY_OPTIONS = (
    *("--max-old-space-size", "--max-semi-space-size", "--enable-source-maps", "--max-http-header-size"),
    *("--dns-result-order", "--no-warnings", "--trace-warnings", "--unhandled-rejections", "--stack-size"),
    # the JVM's memory, collector and container settings and a few plain properties (`-XX:OnError=CMD` and
    # `-javaagent:` load or run code: not here)
    *("-Xmx", "-Xms", "-Xss", "-XX:MaxRAMPercentage", "-XX:InitialRAMPercentage", "-XX:MinRAMPercentage"),
    *(
        "-XX:MaxMetaspaceSize",
        "-XX:+Use",
        "-XX:-Use",
        "-XX:+ExitOnOutOfMemoryError",
        "-XX:ActiveProcessorCount",
    ),
    *("-XX:+HeapDumpOnOutOfMemoryError", "-XX:HeapDumpPath", "-XX:MaxGCPauseMillis", "-Dfile.encoding"),
    *("-Duser.timezone", "-Duser.language", "-Duser.country", "-Djava.net.preferIPv4Stack"),
    "-Djava.awt.headless",
)

# Variables (lower-cased) that choose a network command's route or peer at run time (`HTTPS_PROXY=x curl`).
ROUTE_VARIABLES = frozenset(
    {
        "http_proxy",
        "https_proxy",
        "all_proxy",
        "ftp_proxy",
        "socks_proxy",
        "git_ssh_command",
        "git_ssh",
        "git_proxy_command",
        "git_config_parameters",
        "git_config_count",
        "npm_config_proxy",
        "npm_config_https_proxy",
        "pip_proxy",
        "curl_home",
        "wgetrc",
        "yarn_proxy",
        "yarn_https_proxy",
        "gh_repo",
        "gh_host",
        "p4port",  # the Perforce server every p4 command talks to
        # where an install takes its packages from, for this one command
        *("pip_index_url", "pip_extra_index_url", "pip_find_links", "uv_index_url", "uv_extra_index_url"),
        *("uv_default_index", "uv_index", "npm_config_registry", "yarn_registry", "yarn_npm_registry_server"),
        *("bun_config_registry", "goproxy", "poetry_repositories_", "cargo_registries_"),
        *("hex_mirror", "hex_repo_url", "hex_cdn", "bundle_mirror__", "composer_repo_packagist"),
        *("rustup_dist_server", "rustup_update_root"),  # where rustup takes toolchains and itself from
        # where an install takes the program binaries it runs: browsers, Electron, engines, runtimes
        *(
            "playwright_download_host",
            "playwright_chromium_download_host",
            "playwright_firefox_download_host",
        ),
        *("puppeteer_download_base_url", "puppeteer_download_host", "electron_mirror", "electron_custom_dir"),
        *("sass_binary_site", "chromedriver_cdnurl", "cypress_download_mirror", "prisma_engines_mirror"),
        *("sharp_binary_host", "sharp_libvips_binary_host", "npm_config_sharp_binary_host"),
        *("nvm_nodejs_org_mirror", "node_mirror", "python_build_mirror_url", "flutter_storage_base_url"),
        *("pub_hosted_url", "homebrew_bottle_domain", "homebrew_api_domain", "homebrew_artifact_domain"),
    }
)
# The shape of the name of a variable that tells an installer or a toolchain where to take what it runs
# from, whatever tool it belongs to (`COREPACK_NPM_REGISTRY`, `BUN_INSTALL_REGISTRY_URL`, `X_MIRROR`)
_SOURCE_VARIABLE = re.compile(
    r"(?i)_(?:registry(?:_url|_server)?|index_url|mirror(?:_url)?|dist_server|download_(?:host|base_url|mirror)"
    r"|binary_(?:host|site))$"
)


def is_route_variable(name: str) -> bool:
    """A variable that decides where a tool connects or takes its packages from (`ROUTE_VARIABLES`, or a name
    of that shape)."""
    return name.lower() in ROUTE_VARIABLES or _SOURCE_VARIABLE.search(name) is not None


def may_set_route_variable(lowered: str) -> bool:
    """Whether a lower-cased text may assign a variable `is_route_variable` knows (`name=` somewhere): a
    look for text before a long line is read word by word."""
    return any(f"{name}=" in lowered for name in ROUTE_VARIABLES) or any(
        f"{ending}=" in lowered for ending in _SOURCE_ENDINGS
    )


# What every name `_SOURCE_VARIABLE` matches ends with (`..._REGISTRY=`, `..._MIRROR_URL=`, `..._SERVER=`)
_SOURCE_ENDINGS = ("registry", "_url", "_server", "mirror", "_host", "_site")


# The shells' history variables, and the values that stop the shell keeping a record of what is typed: no
# file (`HISTFILE=/dev/null`, empty), no size (`HISTSIZE=0`), every command ignored (`HISTIGNORE='*'`)
HISTORY_VARIABLES: dict[str, str] = {
    "HISTFILE": r"|/dev/null",
    **dict.fromkeys(("HISTSIZE", "HISTFILESIZE", "SAVEHIST"), r"|0+"),
    "HISTIGNORE": r"[*:&\s]*\*[*:&\s]*",
}


def history_off(name: str, value: str | None) -> bool:
    """Setting `name` to `value` (None: unset) stops the shell's history; an unknown value (computed at run
    time) does not count."""
    pattern = HISTORY_VARIABLES.get(name)
    if pattern is None:
        return False
    return value is None or re.fullmatch(pattern, value.strip("\"'")) is not None


# Environment variables that switch a check of what is downloaded off (TLS certificates, checksums, the Go
# checksum database), and the values that do (a pattern over the whole value)
CHECKS_OFF_VARIABLES: dict[str, str] = {
    "NODE_TLS_REJECT_UNAUTHORIZED": r"0",
    "GIT_SSL_NO_VERIFY": r"(?i)1|true|yes",
    "CMAKE_TLS_VERIFY": r"(?i)0|off|false|no",  # (CMake's downloads: `file(DOWNLOAD)`, FetchContent)
    "PYTHONHTTPSVERIFY": r"0",
    "NPM_CONFIG_STRICT_SSL": r"(?i)false|0",
    "PIP_TRUSTED_HOST": r".+",
    "HEX_UNSAFE_HTTPS": r"(?i)1|true",
    "HEX_UNSAFE_REGISTRY": r"(?i)1|true",
    "BUNDLE_DISABLE_CHECKSUM_VALIDATION": r"(?i)1|true",
    "GOINSECURE": r".+",
    "GOSUMDB": r"off",
    "GONOSUMDB": r".*(?:^|,)\*.*",  # every module (a private prefix is the project's own)
    "GONOSUMCHECK": r".+",
    # GitLab's security templates, each switched off by its variable
    **dict.fromkeys(
        (
            *("SAST_DISABLED", "SECRET_DETECTION_DISABLED", "DEPENDENCY_SCANNING_DISABLED"),
            *(
                "CONTAINER_SCANNING_DISABLED",
                "DAST_DISABLED",
                "IAC_SCANNING_DISABLED",
                "API_FUZZING_DISABLED",
            ),
        ),
        r"(?i)1|true|yes",
    ),
    # pre-commit's hooks skipped by id, one of them a security check (`SKIP=gitleaks git commit`)
    "SKIP": rf"(?i).*(?:{SECURITY_CHECKS.pattern.removeprefix('(?i)')}).*",
    "GOFLAGS": r".*-insecure.*",
    # Julia's downloads: the hosts whose certificates are not checked (`**`: every one)
    **dict.fromkeys(
        ("JULIA_SSL_NO_VERIFY_HOSTS", "JULIA_NO_VERIFY_HOSTS", "JULIA_SSH_NO_VERIFY_HOSTS"), r".+"
    ),
}
# Environment variables that name the editor a program opens a file in (`kubectl edit`'s, `sudoedit`'s)
EDITOR_VARIABLES = frozenset(
    {"EDITOR", "VISUAL", "GIT_EDITOR", "GIT_SEQUENCE_EDITOR", "FCEDIT", "KUBE_EDITOR", "SUDO_EDITOR"}
)
# Environment variables whose value a program runs as a command line (`GIT_SSH_COMMAND='...' git fetch`).
COMMAND_VARIABLES = frozenset(
    {
        *EDITOR_VARIABLES,
        *("GIT_SSH_COMMAND", "GIT_SSH", "GIT_PAGER", "GIT_EXTERNAL_DIFF"),
        *("GIT_ASKPASS", "SSH_ASKPASS", "SUDO_ASKPASS", "GIT_PROXY_COMMAND", "PAGER", "MANPAGER"),
        *("SYSTEMD_PAGER", "LESSOPEN", "LESSCLOSE", "BROWSER"),
        *("PROMPT_COMMAND", "RSYNC_RSH", "CVS_RSH"),
    }
)


# A variable whose name says its value is a command, a step or a hook (`CIBW_BEFORE_ALL_LINUX`,
# `CIBW_TEST_COMMAND`, `DEPLOY_CMD`, `POST_BUILD_HOOK`): handed to a program, the program runs it
_COMMAND_NAMED = re.compile(r"(?:^|_)(?:COMMAND|CMD|BEFORE|AFTER|HOOK|PRE|POST)(?:_|$)")


def runs_value(name: str, value: str) -> bool:
    """Whether the program a variable is handed to runs its value as a command line: a variable the table
    names (`GIT_SSH_COMMAND`, `PAGER`), or one named for a command, step or hook whose value is a command
    with arguments (`CIBW_BEFORE_ALL='curl ... | sh' cibuildwheel`)."""
    if not value:
        return False
    if name in COMMAND_VARIABLES:
        return True
    return bool(_COMMAND_NAMED.search(name)) and len(value.split()) > 1


def changes_what_runs(name: str) -> bool:
    """An environment variable that changes which program runs or what it loads (`PATH`, `PROMPT_COMMAND`,
    `LD_PRELOAD`, `NODE_OPTIONS`, `GIT_SSH_COMMAND`): set in a start-up file or a sourced dotenv file, it
    is more than a setting."""
    return name in CODE_LOADING_VARIABLES or name in COMMAND_VARIABLES or name == "PATH"


# What a tool prints for the shell to evaluate as its own set-up (`eval "$(pyenv init -)"`,
# `source <(kubectl completion bash)`): the sub-command words (a regex over the words after the name, joined
# by spaces) under which its output is the tool's shell integration, written by the tool itself. Evaluating
# that output is the everyday line of every rc file, not code of unknown content.
_SHELLS_ARG = r"(?:\s+-{0,2}(?:bash|zsh|fish|sh|posix|ksh|-s|-c|-))*"
SETUP_SNIPPETS: dict[str, str] = {
    **{
        name: rf"(?:init|virtualenv-init)(?:\s+-(?:-path|-no-rehash|-no-push-path)?)*{_SHELLS_ARG}"
        for name in ("pyenv", "rbenv", "nodenv", "goenv", "jenv", "plenv", "phpenv", "swiftenv")
    },
    **{
        name: rf"completions?{_SHELLS_ARG}"
        for name in (
            *("kubectl", "helm", "gh", "glab", "minikube", "kind", "k3d", "docker", "podman", "npm"),
            *("pnpm", "rustup", "deno", "bun", "poetry", "pip", "pip3", "flux", "argocd", "cilium"),
        )
    },
    "direnv": rf"hook{_SHELLS_ARG}",
    "ssh-agent": r"(?:-[sc])?",
    "starship": rf"init{_SHELLS_ARG}(?:\s+--print-full-init)?",
    "zoxide": rf"init{_SHELLS_ARG}(?:\s+--cmd\s+\w+)?",
    "atuin": rf"init{_SHELLS_ARG}",
    "mise": rf"activate{_SHELLS_ARG}",
    "rtx": rf"activate{_SHELLS_ARG}",
    "fnm": r"env(?:\s+--[\w-]+(?:=\S+)?)*",
    "conda": rf"shell\.(?:bash|zsh|fish|posix)\s+hook|init{_SHELLS_ARG}",
    "brew": r"shellenv",
    "opam": r"env(?:\s+--[\w-]+(?:=\S+)?)*",
    "uv": rf"generate-shell-completion{_SHELLS_ARG}",
    "fzf": r"--(?:bash|zsh|fish)",
    "thefuck": r"--alias(?:\s+\w+)?",
}
_SETUP_PATTERNS = {name: re.compile(pattern) for name, pattern in SETUP_SNIPPETS.items()}


def prints_setup(argv: list[str]) -> bool:
    """The command prints its own shell integration for the shell to evaluate (see `SETUP_SNIPPETS`), or,
    for any program of the table, its own completion script (`neonctl completion zsh`)."""
    if not argv:
        return False
    name = argv[0].rsplit("/", 1)[-1]
    pattern = _SETUP_PATTERNS.get(name)
    if pattern is None and program(name) is not None:
        pattern = _COMPLETION
    return pattern is not None and pattern.fullmatch(" ".join(argv[1:])) is not None


_COMPLETION = re.compile(rf"completions?{_SHELLS_ARG}")


# socat's addresses that reach no network: its own standard streams, files, pipes, terminals, a local socket
# file (`unix-connect:/run/haproxy/admin.sock`, or its bare path); its options follow a comma
_SOCAT_LOCAL = re.compile(
    r"(?i)^(?:-|stdio|stdin|stdout|stderr|[/.~][^,!]*|(?:unix(?:-connect|-client|-sendto)?|abstract-connect"
    r"|file|open|gopen|create|pipe|pty|readline|fd|fdin|fdout):[^!]*)(?:,[^!]*)?$"
)


# A container engine's API socket: whoever talks to it runs containers as root on this machine
ENGINE_SOCKETS = ("/var/run/docker.sock", "/run/docker.sock", "/run/podman/podman.sock")


def socat_local_only(argv: Sequence[str]) -> bool:
    """socat relays only between this machine's own ends (a unix socket and its standard streams): a
    server's runtime API asked something (`echo 'show stat' | socat stdio /run/haproxy/admin.sock`). A
    container engine's socket is no such end: it hands out root."""
    addresses = [w for w in argv[1:] if w == "-" or not w.startswith("-")]
    return (
        len(addresses) == 2
        and all(_SOCAT_LOCAL.match(a) for a in addresses)
        and not any(socket in a for a in addresses for socket in ENGINE_SOCKETS)
    )

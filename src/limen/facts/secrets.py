"""Where secrets live and what brings them out: the one table the secret rules read.

- `PRINTERS`: commands whose output is a credential (`gh auth token`, `aws configure export-credentials`,
  `kubectl get secret -o yaml`, password managers' CLIs, credential helpers), each with what it prints and
  the hosts that issued it (sending it there is its use).
- `STORE_FILES`, `STORE_DIRS`: credential files and folders of common tools and of the coding agents
  themselves, relative to the home (matched wherever they sit, so a copied home counts too).
- `SECRET_NAMES`, `NOT_SECRET_NAMES`, `NOT_SECRET_PATHS`: names that hold secrets wherever they are
  (`.env`, `*.pem`, `.netrc`) and the public material that lives beside them (`.env.example`, `*.pub`).
- `secret_variable(name)`: environment variables whose name says they hold a credential.
- `SWEEPERS`, `KEY_MATERIAL`, `SECRET_FILE_GLOBS`: sweeps for key material (`trufflehog filesystem /`,
  `grep -r "BEGIN RSA PRIVATE KEY" ~`, `find / -name "*.pem"`): their output is the secrets they find.
- `KEY_FILES`: key material whose loss cannot be undone (signing keystores, `.p8` keys, private keys).
- `NON_READERS`: commands that touch a file without returning its content (`chmod`, `stat`, `ssh-add`):
  naming a secret file to them is not a read.

`printer(argv)` answers "does this command print a credential, and which".
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from functools import lru_cache

from limen.facts.programs import SHELL_LOADERS
from limen.prefilter import prefiltered


@dataclass(frozen=True, slots=True)
class Printer:
    """A command that prints a credential: `program words...` (the words in order among its operands)."""

    program: str  # the command's name; a trailing "*" makes it a prefix (`docker-credential-*`)
    words: tuple[str, ...]  # sub-command words, in this order among the operands (options skipped)
    prints: str  # what comes out, for the explanation
    needs: tuple[str, ...] = ()  # regexes the rest of the line must all contain (`--raw`, `-o yaml`, `-w`)
    operand: str = ""  # a regex the first operand after the words must match (`aws configure get X`)
    issuers: tuple[str, ...] = ()  # host globs that issued the credential: sending it there is its use
    own_services: bool = False  # the project's own services take it too (an identity token's audience)
    to_file: tuple[str, ...] = ()  # options that write what it prints to a file instead (`op inject -o .env`)
    # the credential is made by the call (a key rotation's new key), not taken from a store
    mints: bool = False
    # it writes a file of its own (a core dump), whatever the line does with its output
    dumps: bool = False
    # without a `to_file` option it writes what it prints over the files it names (`ansible-vault decrypt
    # group_vars/prod/vault.yml`): the plain text is kept where the encrypted file was, and travels with it
    in_place: bool = False

    def issued_for(self, host: str, cwd: str = "", argv: tuple[str, ...] = ()) -> bool:
        """Whether `host` is one of the credential's issuers (or, for a credential the project's own
        services take, one of those, under the domain named for the project's origin), or the service the
        printing command (`argv`) asked the token for by name (`az account get-access-token --resource
        https://x.crm.dynamics.com`): where sending it is its use."""
        from limen.facts.hosts import host_in, project_domain

        if self.own_services and cwd and project_domain(host, cwd):
            return True
        if argv and host.lower() in _audiences(argv):
            return True
        return bool(self.issuers) and host_in(host, self.issuers)


def _audiences(argv: tuple[str, ...]) -> set[str]:
    """The hosts a token is asked for by name (`--resource https://x.crm.dynamics.com`, `--scope
    https://x/.default`, `--audiences`): the service it is made to be sent to."""
    from urllib.parse import urlsplit

    found: set[str] = set()
    for i, word in enumerate(argv[1:32], 1):
        option, eq, value = word.partition("=")
        if option in _AUDIENCE_OPTIONS:
            value = value if eq else (argv[i + 1] if i + 1 < len(argv) else "")
            host = urlsplit(value).hostname if "://" in value else None
            if host:
                found.add(host.lower())
    return found


_AUDIENCE_OPTIONS = frozenset({"--resource", "--scope", "--scopes", "--audience", "--audiences", "--aud"})


_GITHUB = ("github.com", "*.github.com", "ghcr.io", "*.githubusercontent.com")  # with its registry
_AWS = ("*.amazonaws.com",)
_FLY = ("api.fly.io", "api.machines.dev")
_GOOGLE = ("*.googleapis.com", "*.google.com", "*.pkg.dev", "gcr.io", "*.gcr.io")  # with its registries
_AZURE = ("*.azure.com", "*.microsoft.com", "*.microsoftonline.com", "*.windows.net")
_OP_OUT_FILE = ("-o", "--out-file")
# (a template that prints only what names the objects, `-o jsonpath='{.metadata.creationTimestamp}'`,
# `custom-columns=NAME:.metadata.name`, prints none of their data)
_OUTPUT_DATA = (
    r"(?:^|\s)(?:-o|--output)(?:=|\s*)(?:ya?ml|json(?!path)|(?:jsonpath|go-template|custom-columns)(?:-file)?"
    r"(?:=|\s*)(?=\S*[{:]\s*[$@]?\.(?:items\[[^\]]*\]\.)?(?!metadata\b|type\b|kind\b)\w|\S*-file"
    # (a template with spaces that ranges over the data or decodes it: `{{range $k,$v := .data}}`)
    r"|[^|;&]*?(?:\.data\b|\.stringData\b|base64decode|b64dec)))"
)
_SECRET_NAME = r"(?i)key|secret|token|pass|pwd|url|uri|dsn|credential|auth|private|cert|salt|signing"
_CAPTURED = "the network's traffic with its payloads (logins and tokens sent in the clear)"
_PAYLOADS = r"(?:^|\s)-[a-zA-Z]*[AX]"  # (`-A`, `-X`, `-XX`, `-nnA`: each packet's content printed)
_LOGIN_WORDS = (
    r"(?i)pass|pwd|user|login|auth|token|secret|cookie|session|bearer"  # (what ngrep is told to find)
)
_NOT_LOOPBACK = r"^(?!.*(?:^|\s)(?:-[id]\s*|--interface[=\s])lo\d*(?:\s|$))"
_SECRET_OPERAND = r"(?:^|\s)secrets?(?:/\S*)?(?:\s|$)"
# `pass NAME` shows NAME: every first operand but pass's own sub-commands.
_PASS_ENTRY = (
    r"^(?!(?:ls|list|find|search|grep|init|insert|add|edit|generate|rm|remove|delete|mv|rename|cp|copy|git|"
    r"help|version|otp|sync|setup|config|audit|templates|recipients|mounts|fsck|update)$)[^-]"
)

PRINTERS: tuple[Printer, ...] = (
    Printer("gh", ("auth", "token"), "a GitHub token", issuers=_GITHUB),
    Printer(
        "gh", ("auth", "status"), "a GitHub token", needs=(r"(?:^|\s)(?:-t|--show-token)\b",), issuers=_GITHUB
    ),
    Printer("glab", ("auth", "status"), "a GitLab token", needs=(r"(?:^|\s)(?:-t|--show-token)\b",)),
    Printer("aws", ("configure", "export-credentials"), "AWS credentials", issuers=_AWS),
    Printer(
        "aws",
        ("configure", "get"),
        "an AWS secret",
        operand=r"(?i)secret|session_token|password|credential",
        issuers=_AWS,
    ),
    Printer("aws", ("sts", "get-session-token"), "AWS session credentials", issuers=_AWS),
    Printer("aws", ("sts", "assume-role"), "AWS session credentials", issuers=_AWS),
    Printer("aws", ("sts", "assume-role-with-web-identity"), "AWS session credentials", issuers=_AWS),
    Printer("aws", ("sts", "get-federation-token"), "AWS session credentials", issuers=_AWS),
    Printer("aws", ("ecr", "get-login-password"), "an ECR password", issuers=_AWS),
    Printer("aws", ("codeartifact", "get-authorization-token"), "a CodeArtifact token", issuers=_AWS),
    Printer("aws", ("secretsmanager", "get-secret-value"), "a Secrets Manager secret", issuers=_AWS),
    Printer("aws", ("ssm", "get-parameter"), "an SSM secret", needs=(r"--with-decryption",), issuers=_AWS),
    Printer("aws", ("ssm", "get-parameters"), "SSM secrets", needs=(r"--with-decryption",), issuers=_AWS),
    Printer(
        "aws", ("ssm", "get-parameters-by-path"), "SSM secrets", needs=(r"--with-decryption",), issuers=_AWS
    ),
    Printer("aws", ("iam", "create-access-key"), "a new AWS secret key", issuers=_AWS, mints=True),
    Printer("aws-vault", ("export",), "AWS credentials", issuers=_AWS),
    Printer("kubectl", ("config", "view"), "cluster credentials", needs=(r"--raw|--flatten",)),
    Printer("kubectl", ("get",), "Kubernetes secrets", needs=(_OUTPUT_DATA, _SECRET_OPERAND)),
    Printer("kubectl", ("create", "token"), "a service-account token", mints=True),
    Printer("oc", ("whoami",), "an OpenShift token", needs=(r"(?:^|\s)(?:-t|--show-token)\b",)),
    Printer("oc", ("get",), "OpenShift secrets", needs=(_OUTPUT_DATA, _SECRET_OPERAND)),
    Printer("gcloud", ("auth", "print-access-token"), "a Google access token", issuers=_GOOGLE),
    # (an identity token's audience is a service: the project's own take it too)
    Printer(
        "gcloud", ("auth", "print-identity-token"), "a Google ID token", issuers=_GOOGLE, own_services=True
    ),
    Printer("gcloud", ("secrets", "versions", "access"), "a Secret Manager secret", issuers=_GOOGLE),
    Printer("gcloud", ("config", "config-helper"), "a Google access token", issuers=_GOOGLE),
    Printer(
        "gcloud", ("iam", "service-accounts", "keys", "create"), "a new service-account key", issuers=_GOOGLE
    ),
    Printer("gcloud", ("auth", "application-default", "print-access-token"), "a Google access token"),
    Printer(
        "az", ("ad", "sp", "create-for-rbac"), "a new service-principal secret", issuers=_AZURE, mints=True
    ),
    Printer(
        "az",
        ("ad", "sp", "credential", "reset"),
        "a new service-principal secret",
        issuers=_AZURE,
        mints=True,
    ),
    Printer(
        "az", ("ad", "app", "credential", "reset"), "a new application secret", issuers=_AZURE, mints=True
    ),
    Printer("az", ("account", "get-access-token"), "an Azure access token", issuers=_AZURE),
    Printer("az", ("keyvault", "secret", "show"), "a Key Vault secret", issuers=_AZURE),
    Printer("az", ("storage", "account", "keys", "list"), "Azure storage keys", issuers=_AZURE),
    Printer("az", ("storage", "account", "show-connection-string"), "an Azure storage key", issuers=_AZURE),
    # a registry's admin passwords, a database's keys, a cluster's admin credentials printed (`--file -`)
    Printer("az", ("acr", "credential", "show"), "a registry's passwords", issuers=("*.azurecr.io",)),
    Printer("az", ("cosmosdb", "keys", "list"), "Cosmos DB keys", issuers=_AZURE),
    Printer("az", ("redis", "list-keys"), "Azure Cache for Redis keys", issuers=_AZURE),
    # any Azure service's access keys (`az servicebus namespace authorization-rule keys list`, `az
    # cognitiveservices account keys list`), an app's settings and connection strings, its deployment
    # passwords, a search service's admin key
    Printer("az", ("keys", "list"), "an Azure service's access keys", issuers=_AZURE),
    Printer("az", ("list-keys",), "an Azure service's access keys", issuers=_AZURE),
    Printer("az", ("connection-string", "list"), "an app's connection strings", issuers=_AZURE),
    Printer(
        "az", ("connection-string", "show"), "a service's connection string with its key", issuers=_AZURE
    ),
    # Terraform's state with every resource's attributes, generated passwords among them; npm's saved token
    Printer("terraform", ("state", "pull"), "the state's secrets (generated passwords, keys)"),
    Printer("npm", ("config", "get"), "an npm registry token", operand=r"(?i)_auth|token|password"),
    # etcd's keys under /registry/secrets: a cluster's Secrets, in the clear
    Printer("etcdctl", ("get",), "a cluster's Secrets", operand=r"^/registry/secrets"),
    Printer("az", ("appsettings", "list"), "an app's settings, with its secrets", issuers=_AZURE),
    Printer("az", ("webapp", "deployment", "list-publishing-profiles"), "deployment passwords"),
    Printer("az", ("webapp", "deployment", "list-publishing-credentials"), "deployment passwords"),
    Printer("az", ("search", "admin-key", "show"), "a search service's admin key", issuers=_AZURE),
    Printer("az", ("aks", "get-credentials"), "a cluster's admin keys", needs=(r"--admin\b", r"--file\s+-")),
    # Windows' registry hives of accounts and secrets saved to a file: every local password hash, the
    # machine's cached domain credentials and LSA secrets (the key to decrypt them is in SYSTEM)
    Printer(
        "reg",
        ("save",),
        "the machine's password hashes",
        operand=r"(?i)^HK(?:LM|EY_LOCAL_MACHINE)\\?(?:SAM|SECURITY|SYSTEM)$",
    ),
    # the machine's password hashes, from whichever database holds them (`getent shadow`, `getent gshadow`)
    Printer("getent", ("shadow",), "the machine's password hashes"),
    Printer("getent", ("gshadow",), "the groups' password hashes"),
    # a keytab's keys shown (`klist -k -K`), Maven's settings with their passwords, JFrog CLI's servers with
    # their tokens
    Printer("klist", (), "a keytab's keys", needs=(r"(?:^|\s)-\w*K",)),
    Printer(
        "mvn", ("help:effective-settings",), "Maven's server passwords", needs=(r"-DshowPasswords=true",)
    ),
    Printer("jf", ("config", "export"), "JFrog servers' tokens"),
    Printer("jfrog", ("config", "export"), "JFrog servers' tokens"),
    # Windows' credential vault, its saved credentials listed (`vaultcmd /listcreds:"Windows Credentials"`)
    Printer("vaultcmd", (), "the Windows vault's saved credentials", operand=r"(?i)^/listcreds\b"),
    Printer("git", ("credential", "fill"), "a git credential"),
    Printer("git", ("credential-manager", "get"), "a git credential"),
    Printer("docker-credential-*", ("get",), "a registry credential"),
    Printer("git-credential-*", ("get",), "a git credential"),
    Printer("op", ("read",), "a 1Password secret", to_file=_OP_OUT_FILE),
    Printer("op", ("item", "get"), "a 1Password item"),
    Printer("op", ("document", "get"), "a 1Password document", to_file=_OP_OUT_FILE),
    Printer("op", ("inject",), "1Password secrets", to_file=_OP_OUT_FILE),
    Printer("bw", ("get",), "a Bitwarden secret"),
    Printer("bw", ("list", "items"), "Bitwarden items"),
    Printer("bw", ("export",), "a Bitwarden vault's every item", to_file=("--output",)),
    Printer("pass", (), "a pass entry", operand=_PASS_ENTRY),
    Printer("gopass", (), "a gopass entry", operand=_PASS_ENTRY),
    Printer("lpass", ("show",), "a LastPass entry"),
    Printer("keepassxc-cli", ("show",), "a KeePassXC entry"),
    Printer(
        "security",
        ("find-generic-password",),
        "a keychain password",
        needs=(r"(?:^|\s)-[A-Za-z]*[wg][A-Za-z]*\b",),
    ),
    Printer(
        "security",
        ("find-internet-password",),
        "a keychain password",
        needs=(r"(?:^|\s)-[A-Za-z]*[wg][A-Za-z]*\b",),
    ),
    Printer("security", ("dump-keychain",), "the keychain", needs=(r"(?:^|\s)-[A-Za-z]*d[A-Za-z]*\b",)),
    # (its identities with their private keys, written to the file `-o` names: readable from there)
    Printer(
        "security", ("export",), "the keychain's identities", needs=(r"(?:^|\s)-t\s+(?:identities|all)\b",)
    ),
    Printer("secret-tool", ("lookup",), "a keyring secret"),
    Printer("secret-tool", ("search",), "keyring secrets"),  # (each match with its `secret = ...`)
    # rclone's remotes with their keys (and passwords it only obscures); Nextflow's and Rails' stores
    Printer("rclone", ("config", "dump"), "cloud storage keys and passwords"),
    Printer("rclone", ("config", "show"), "cloud storage keys and passwords"),
    Printer("nextflow", ("secrets", "get"), "a Nextflow secret"),
    Printer("rails", ("credentials:show",), "an app's decrypted credentials"),
    Printer("supabase", ("projects", "api-keys"), "a project's API keys, the service role's among them"),
    # a new API key's secret, printed once as it is made
    Printer("confluent", ("api-key", "create"), "a new Confluent API secret", mints=True),
    # Airflow's connections and variables hold the passwords and keys its DAGs use
    Printer("airflow", ("connections", "export"), "Airflow's connections with their passwords"),
    Printer("airflow", ("connections", "get"), "an Airflow connection with its password"),
    Printer("airflow", ("variables", "export"), "Airflow's variables"),
    Printer("heroku", ("auth:token",), "a Heroku token"),
    Printer("heroku", ("config",), "an app's config vars"),
    # a setting by a name that says credential (`RAILS_MAX_THREADS` is no secret)
    Printer("heroku", ("config:get",), "an app's config var", operand=_SECRET_NAME),
    # WP-CLI's view of wp-config.php: a constant named for a secret (`DB_PASSWORD`, `AUTH_KEY`), or all
    Printer("wp", ("config", "get"), "a WordPress secret constant", operand=_SECRET_NAME),
    Printer("wp", ("config", "get"), "WordPress's database password and keys", needs=(r"--fields\b",)),
    Printer("wp", ("config", "list"), "WordPress's database password and keys"),
    Printer("firebase", ("functions:config:get",), "functions' config secrets"),
    Printer("docker", ("inspect",), "a container's environment", needs=(r"\.Env\b",)),
    Printer("podman", ("inspect",), "a container's environment", needs=(r"\.Env\b",)),
    # (`npm token list` shows each token's id and first characters only)
    Printer("npm", ("token", "create"), "an npm token", mints=True),
    Printer("vault", ("kv", "get"), "a Vault secret"),
    # a project's CI/CD variables (signing keys, deploy tokens) as the forge keeps them
    Printer("glab", ("variable", "get"), "a GitLab CI/CD variable"),
    Printer("glab", ("variable", "export"), "GitLab CI/CD variables"),
    # a secret's path has a mount (`database/creds/ro`); `vault policy read NAME` shows a policy
    # (the server's state and an auth method's settings hold none: `vault read sys/health`, `auth/x/role/y`)
    Printer(
        "vault",
        ("read",),
        "a Vault secret",
        operand=r"^(?!/?(?:sys|identity)/|/?auth/[^/\s]+/(?:role|config|map|groups|users|certs)(?:/|$))\S*/",
    ),
    Printer("vault", ("print", "token"), "a Vault token"),
    Printer("vault", ("token", "create"), "a Vault token", mints=True),
    Printer("doppler", ("secrets",), "Doppler secrets"),
    Printer("fly", ("auth", "token"), "a Fly.io token", issuers=_FLY),
    Printer("flyctl", ("auth", "token"), "a Fly.io token", issuers=_FLY),
    Printer("firebase", ("login:ci",), "a Firebase token"),
    Printer("databricks", ("secrets", "get-secret"), "a Databricks secret"),
    # the Astro CLI runs Airflow's own commands in the local project's containers (`astro dev run ...`)
    Printer("astro", ("connections", "get"), "an Airflow connection with its password"),
    Printer("astro", ("connections", "export"), "Airflow's connections with their passwords"),
    Printer("astro", ("variables", "export"), "Airflow's variables"),
    Printer("stripe", ("config",), "Stripe's keys", needs=(r"\s--list\b",), issuers=("api.stripe.com",)),
    Printer("cf", ("oauth-token",), "a Cloud Foundry token"),
    # wallets' keys: Foundry's keystores decrypted, a key derived from a mnemonic, an account exported
    Printer("cast", ("wallet", "decrypt-keystore"), "a wallet's private key"),
    Printer("cast", ("wallet", "private-key"), "a wallet's private key"),
    Printer("cast", ("wallet", "derive-private-key"), "a wallet's private key"),
    Printer("solana-keygen", ("recover",), "a wallet's private key", needs=(r"--outfile[=\s]+-(?:\s|$)",)),
    # a Bitcoin node's wallet: a key, the wallet's keys, its descriptors with their private keys (`true`)
    *(Printer(cli, ("dumpprivkey",), "a wallet's private key") for cli in ("bitcoin-cli", "litecoin-cli")),
    *(Printer(cli, ("dumpwallet",), "a wallet's private keys") for cli in ("bitcoin-cli", "litecoin-cli")),
    *(
        Printer(cli, ("listdescriptors",), "a wallet's private keys", needs=(r"\s(?:true|1)\b",))
        for cli in ("bitcoin-cli", "litecoin-cli")
    ),
    *(Printer("electrum", (word,), "a wallet's seed or keys") for word in ("getseed", "getprivatekeys")),
    Printer("electrum", ("getmasterprivate",), "a wallet's master private key"),
    Printer("dx", ("env",), "a DNAnexus token"),
    Printer("hardhat", ("vars", "get"), "a Hardhat configuration variable (a key)"),
    Printer("sops", (), "decrypted secrets", needs=(r"(?:^|\s)(?:-d|--decrypt|decrypt)\b",)),
    # Ansible's vault: its plain text shown, or decrypted to standard output
    Printer("ansible-vault", ("view",), "an Ansible vault's secrets"),
    Printer(
        "ansible-vault", ("decrypt",), "an Ansible vault's secrets", to_file=("--output",), in_place=True
    ),
    Printer("ansible-vault", ("view",), "a decrypted vault"),
    Printer("gpg", (), "a private key", needs=(r"--export-secret-(?:sub)?keys?\b",)),
    Printer("gpg2", (), "a private key", needs=(r"--export-secret-(?:sub)?keys?\b",)),
    # traffic captured with its payloads off a real interface (not loopback): the logins, tokens and cookies
    # other programs send in the clear (`tcpdump -A port 23`, `ngrep -q 'pass'`)
    Printer("tcpdump", (), _CAPTURED, needs=(_PAYLOADS, _NOT_LOOPBACK), to_file=("-w",)),
    Printer("ngrep", (), _CAPTURED, needs=(_NOT_LOOPBACK, _LOGIN_WORDS), to_file=("-O",)),
    # a running process's memory holds the keys and tokens it loaded (an ssh-agent's, a browser's)
    Printer("gcore", (), "a process's memory", to_file=("-o",), dumps=True),
    Printer("procdump", (), "a process's memory", dumps=True),
    Printer("gdb", (), "a process's memory", needs=(r"(?:^|\s)(?:-p|--pid(?:=|\s)|attach\s)",), dumps=True),
    Printer(
        "lldb",
        (),
        "a process's memory",
        needs=(r"(?:^|\s)(?:-p|--attach-pid|-n|--attach-name)\b",),
        dumps=True,
    ),
)

# Names (a path's last component) that hold secrets wherever they are.
SECRET_NAMES = re.compile(
    r"""^(
        \.env(\..+)?|\.envrc|[\w.-]+\.env|
        # Cloudflare Wrangler's local secrets (`.dev.vars`, `.dev.vars.staging`)
        \.dev\.vars(\..+)?|
        # Ansible's vault password file: the key to every secret the inventories keep
        \.?vault[-_]pass(word)?(\.txt)?|
        .*\.(pem|key|p8|p12|pfx|jks|keystore|ppk|kdbx|ovpn)|
        # OpenDKIM's and BIND's private keys (`mail.private`, `Kexample.com.+013+12345.private`)
        .*\.private|
        \.netrc|_netrc|netrc|\.pgpass|\.my\.cnf|\.git-credentials|\.pypirc|\.npmrc|\.htpasswd|
        \.vault-token|\.s3cfg|\.boto|\.dockercfg|
        # Akamai's EdgeGrid client secrets; Ceph's keyrings; iRODS's scrambled password
        \.edgerc|.*\.keyring|\.irodsA|
        # Kerberos's ticket caches and keytabs, Jupyter's server and kernel tokens, Slurm's database password
        krb5cc_[\w.-]+|.*\.keytab|jpserver-[\w-]+\.json|kernel-[\w-]+\.json|slurmdbd\.conf|
        credentials(\.json|\.toml|\.db|\.tfrc\.json)?|.*service[-_]account.*\.json|([\w-]+\.)?secrets?\.(ya?ml|json|toml|env)|
        .*\.keychain(-db)?|login\.keychain|Cookies|Login\ Data|key[34]\.db|logins\.json|cookies\.sqlite|
        wallet\.dat|
        # a wallet's recovery phrase written down (`ledger-recovery-phrase.txt`, `seed_words.txt`, `mnemonic`)
        ([\w-]*[-_])?(recovery|seed|secret|backup)[-_]?(phrase|words)(\.[\w-]+)?|([\w-]*[-_])?mnemonics?(\.(txt|json|md))?|
        # a private or signing key named for what it is (`signing-key.sec`, Nix's cache `secret-key`,
        # `private_key.txt`)
        ([\w.-]*[-_.])?(signing|priv(ate)?|secret)[-_]?keys?(\.(sec|txt|json|asc|bin|b64|base64))?|.*\.sec|
        # an SSH server's host keys: whoever holds one can pose as the machine
        ssh_host_\w+_key|
        # an Erlang release's distribution cookie, an Azure Pipelines agent's registration credentials
        COOKIE|\.credentials(_rsaparams)?|
        access[-_]tokens?(\.(json|txt|yml|yaml))?|\.?api[-_]?keys?(\.(json|txt|yml|yaml))?|
        # any tool's file named for the password or token it keeps (`.p4passwd.p4admin`, `db-password.txt`,
        # `github-token`): a hidden file so named, or a data file (the system's `/etc/passwd` keeps none)
        \.[\w-]*(passwd|password|token)s?(\.[\w-]+)*|
        [\w-]+[-_](password|passwd|token)s?(\.(txt|json|ya?ml|cfg|conf|ini))?|
        # (and by its extension: a server's `conf/admin.password`, `publish.password`)
        [\w-]+\.(password|passwd)|
        # what a secrets server's initialisation prints: its unseal or recovery keys and its root token
        ([\w-]*[-_])?(unseal|recovery)[-_]keys?(\.(json|txt))?|init[-_]keys(\.(json|txt))?|root[-_]token(\.(json|txt))?|
        # shells' and database clients' histories: the passwords and tokens typed on their command lines
        \.(bash|zsh|sh|ksh|psql|mysql|sqlite|python|node_repl|rediscli|mongosh|irb|pry)_history|\.histfile|
        fish_history|\.history|ConsoleHost_history\.txt|
        # a client's saved session cookies (`cookie`, `cookies.txt`): whoever holds them is signed in
        cookies?(\.(txt|json|jar))?
    )$""",
    re.VERBOSE,
)
# A password's shape: letters, digits and a mark, or letters of both cases and digits run together (a
# word, a number, a version, a date, a variable or a placeholder is none)
PASSWORD_SHAPE = re.compile(
    r"(?=.*[A-Za-z])(?=.*\d)(?=.*[!@#$%^&*?~+=])|(?=.*[a-z])(?=.*[A-Z])(?=.*\d)[A-Za-z0-9]{8,}$"
)
# Sub-commands and programs that make an account or set its password (`kadmin -q "addprinc -pw P x"`,
# `ldappasswd -s P uid=x`, `p4 passwd -P P user`, `register_new_matrix_user -p P`, `user create`)
ACCOUNT_PASSWORD_VERB = re.compile(
    r"(?i)(?:^|[\s_-])(?:\w*passwd|addprinc|cpw|change_password|useradd|adduser|add-?user|create-?user"
    r"|set-?password|reset-?password|register\w*|new-?user|users?[\s_-]+(?:add|create|new))(?=[\s_-]|$)"
)


# Environment variables that hold a credential by their name (`STRIPE_SECRET_KEY`, `VAULT_TOKEN`,
# `PGPASSWORD`, `DATABASE_URL`), and the look-alikes that hold a place, a switch or a label beside one
# (`SSH_AUTH_SOCK`, `AWS_ACCESS_KEY_ID`, `GOOGLE_APPLICATION_CREDENTIALS`, `JWT_SECRET_FILE`, `AUTH0_DOMAIN`).
SECRET_VARIABLE = prefiltered(
    r"(?i)KEY|TOKEN|SECRET|PASS|CRED|AUTH|SESSION|COOKIE|PRIVATE|(?:DATABASE|DB|REDIS|MONGO(?:DB)?|AMQP|BROKER)_URL$"
    r"|DSN$"
)
NOT_SECRET_VARIABLE = re.compile(
    r"(?i)_(?:SOCK|FILE|PATH|DIR|HOME|ID|REGION|DOMAIN|HOST|PORT|ENABLED|LENGTH|NAME|TYPE|ALGORITHM|TTL|EXPIRY"
    r"|TIMEOUT|ISSUER|AUDIENCE|MODE|VERSION|PROVIDER)$|^GOOGLE_APPLICATION_CREDENTIALS$|KEYBOARD|KEYMAP|BYPASS"
)


def secret_variable(name: str) -> bool:
    """Whether an environment variable's name says its value is a credential."""
    return bool(SECRET_VARIABLE.search(name)) and not NOT_SECRET_VARIABLE.search(name)


# Identifiers that services hand out for their objects, shaped like tokens but naming a record, not granting
# access: Stripe's (`pi_3Pq...` a payment, `cus_...` a customer, `sub_...` a subscription; its keys are
# `sk_`, `rk_`, `whsec_` and stay secrets)
OBJECT_IDS = re.compile(
    r"^(?:pi|ch|cus|sub|in|il|ii|re|pm|prod|price|acct|evt|txn|po|seti|src|ba|card|si|tr|py|cn|dp|sku|plink"
    r"|prv|txr|cs_test|cs_live|pyr|ic|iauth|ipi|du|qt|tmr|promo|coupon|bank|btok|tok|ti)_[A-Za-z0-9]{8,40}$"
)
# Public material that lives beside secrets: example env files, public keys and certificates' requests,
# ssh's host list and client configuration.
NOT_SECRET_NAMES = re.compile(
    r"^\.(?:env|dev\.vars)(\.[\w-]+)*\.(example|sample|template|dist|defaults|schema)$|"
    r"^(?:[\w.-]*[._-])?(?:example|sample|template|dist|defaults|schema)\.env$|"  # `docs/example.env`
    r"^\.env\.(example|sample|template|dist)\.[\w-]+$|^.*\.(pub|pub\.asc)$"
    # the public half of a key pair, by its name (`oauth-public.key`, `jwt_public.pem`, `secure_boot_pub.pem`)
    r"|^(?:[\w.-]*[-_.])?(?:public|pub)(?:[-_.][\w.-]*)?\.(?:key|pem|crt)$"
    # a certificate authority's or a chain's certificate, by its name (`acme-root-ca.pem`, `fullchain.pem`)
    r"|^(?:[\w.-]*[-_.])?(?:ca|root-?ca|cacerts?|ca-bundle|ca-certificates|chain|fullchain)\.(?:pem|crt|cer)$"
    # a certificate by its name (`idp-cert.pem`, `server-certificate.crt`): the public half a peer is shown
    r"|^(?:[\w.-]*[-_.])?(?:cert|certificate)s?\.(?:pem|crt|cer)$"
)
NOT_SECRET_PATHS = re.compile(
    r"/\.ssh/(known_hosts(\.old)?|config|authorized_keys2?|config\.d/.*)$|"
    # settings that live in credential folders: regions, profiles, projects, daemon and cache files
    r"/\.aws/(config|cli/cache/.*\.json\.lock|sso/cache/.*\.lock)$|"
    r"/\.config/gcloud/(active_config|configurations/.*|logs/.*|\.last_.*)$|"
    r"/\.docker/(daemon\.json|features\.json|contexts/.*|buildx/.*|cli-plugins/.*)$|"
    r"/\.kube/(cache|http-cache)/.*$|"
    r"/\.gnupg/[\w-]+\.conf$|"
    # a test suite's fixtures: made-up tokens and keys the tests read (`test/fixtures/expired-id-token.txt`)
    r"/(?:tests?|spec|__tests__)/(?:[\w.-]+/)*(?:fixtures?|__fixtures__|testdata)/"
)

# Credential files of tools and agents, relative to the home.
STORE_FILES: tuple[str, ...] = (
    ".claude/.credentials.json",
    # the agents' own configuration of their MCP servers: each server's environment, with its tokens
    ".claude.json",
    ".codeium/windsurf/mcp_config.json",
    ".config/Claude/claude_desktop_config.json",
    "Library/Application Support/Claude/claude_desktop_config.json",
    "AppData/Roaming/Claude/claude_desktop_config.json",
    ".codex/auth.json",
    ".gemini/oauth_creds.json",
    ".gemini/google_accounts.json",
    ".local/share/opencode/auth.json",
    ".config/opencode/auth.json",
    ".config/gh/hosts.yml",
    ".config/hub",
    ".config/glab-cli/config.yml",
    ".config/git/credentials",
    ".docker/config.json",
    ".cargo/credentials",
    ".cargo/credentials.toml",
    ".terraform.d/credentials.tfrc.json",
    ".gem/credentials",
    ".m2/settings-security.xml",
    ".m2/settings.xml",  # <server> passwords for the repositories Maven deploys to
    ".gradle/gradle.properties",  # signing and publishing passwords
    ".ivy2/.credentials",
    ".sbt/credentials",
    ".fly/config.yml",
    ".config/doctl/config.yaml",
    ".config/rclone/rclone.conf",
    ".config/hcloud/cli.toml",
    ".config/netlify/config.json",
    ".config/configstore/firebase-tools.json",
    ".config/github-copilot/hosts.json",
    ".config/github-copilot/apps.json",
    ".wrangler/config/default.toml",
    ".config/.wrangler/config/default.toml",
    ".local/share/com.vercel.cli/auth.json",
    ".config/heroku/credentials",
    ".oci/config",
    ".databrickscfg",
    ".huggingface/token",
    ".cache/huggingface/token",
    ".config/gcloud/credentials.db",
    ".config/gcloud/access_tokens.db",
    ".config/gcloud/application_default_credentials.json",
    ".config/stripe/config.toml",
    # Globus's tokens, DBeaver's saved connections' passwords
    ".globus/cli/storage.db",
    ".local/share/DBeaverData/workspace6/General/.dbeaver/credentials-config.json",
    # the CDNs' CLIs: Fastly's API token, Shopify's CLI sessions
    ".config/fastly/config.toml",
    ".config/shopify-cli-kit-nodejs/config.json",
    # Turborepo's remote-cache token, Cachix's auth token, Supabase's and Netlify's CLI tokens
    ".config/turborepo/config.json",
    ".turbo/config.json",
    ".config/cachix/cachix.dhall",
    ".supabase/access-token",
    ".expo/state.json",  # the Expo CLI's session secret
    ".config/dart/pub-credentials.json",  # pub.dev's publishing token
    ".pub-cache/credentials.json",
    ".config/netlify/config.json",
    ".terraformrc",
    ".composer/auth.json",
    ".config/composer/auth.json",
    ".ngrok2/ngrok.yml",
    ".config/ngrok/ngrok.yml",
    ".twilio-cli/config.json",
    ".config/twilio-cli/config.json",
    ".snowflake/config.toml",
    ".snowsql/config",
    ".hex/hex.config",
    ".config/rebar3/hex.config",  # rebar3_hex's API keys
    ".erlang.cookie",  # the Erlang distribution cookie: whoever has it runs code on every node that uses it
    ".config/chezmoi/key.txt",  # the age identity chezmoi decrypts the dotfiles' secrets with
    ".config/hardhat-nodejs/vars.json",  # Hardhat's configuration variables (deployer keys, API keys)
    # Laravel's hosting CLIs (Vapor, Forge) and DigitalOcean's doctl keep their API tokens here
    ".laravel-vapor/config.json",
    ".config/laravel-forge/config.json",
    ".config/doctl/config.yaml",
    ".snowflake/connections.toml",
    ".dbt/profiles.yml",
    ".circleci/cli.yml",
    ".config/circleci/cli.yml",
    ".sentryclirc",
    ".kaggle/kaggle.json",
    ".config/kaggle/kaggle.json",
    ".railway/config.json",
    ".confluent/config.json",
    # editors' state databases: the GitHub and other sign-ins of their extensions
    ".config/Code/User/globalStorage/state.vscdb",
    ".config/Cursor/User/globalStorage/state.vscdb",
    "Library/Application Support/Code/User/globalStorage/state.vscdb",
    "Library/Application Support/Cursor/User/globalStorage/state.vscdb",
)
# A package manager's or a build tool's settings file: secret by name, because it may hold a registry's
# token, but a project's copy most often names the token's variable (`_authToken=${NPM_TOKEN}`) and holds none
SETTINGS_WITH_TOKENS = re.compile(
    r"(?i)(?:^|/)(?:\.npmrc|\.yarnrc(?:\.yml)?|\.pypirc|pip\.conf|\.gemrc|\.condarc|bunfig\.toml|settings\.xml"
    r"|nuget\.config|\.envrc)$"  # (and direnv's `.envrc`: mostly `use`, `dotenv` and `PATH_add` lines)
)
# Names of stores and shares, asked only of a path that holds one of these words (so that the common names pay
# nothing for them): a tool's file named for its credentials (`vcc-credentials.properties`), a key store kept
# as a database or a data file (`keystore.db`, `lane-keystore.sqlite`), a share of a key split by Shamir's
# scheme (`shamir-share-3.txt`, `seed-shares.json`)
STORE_AND_SHARE_WORDS = ("credential", "keystore", "key_store", "share", "shamir")
STORE_AND_SHARE_NAMES = re.compile(
    r"(?i)^(?:[\w.-]+[-_.]credentials?\.(?:properties|json|ya?ml|toml|ini|conf|cfg|xml)"
    r"|(?:[\w-]*[-_.])?keystore\.(?:db|sqlite3?|dat|bin|json)"
    r"|(?:[\w-]*[-_])?(?:shamir[-_]|seed[-_]?|key[-_]?)shares?(?:[-_]\d+)?(?:\.(?:txt|json|bin))?)$"
)
# A file right in a folder named for keys or their shares (`geth_keystore/`, a Docker volume's
# `signer-keystore/_data/`, `shamir/`): a wallet's or a signer's key, whatever its own name (program code and
# pages aside)
KEYSTORE_FOLDER = re.compile(
    r"(?i)/[\w.-]*(?:key_?stores?|shamir|key_?shares|seed_?shares)(?:/_data)?/[^/]+$"
)
# Folders whose whole content is secret material.
STORE_DIRS: tuple[str, ...] = (
    ".ssh",
    ".gnupg",
    ".aws",
    ".azure",
    ".config/gcloud",
    ".kube",
    ".docker",
    ".password-store",
    ".config/op",
    ".op",
    ".config/Bitwarden CLI",
    "Library/Application Support/Bitwarden CLI",
    ".local/share/keyrings",
    ".config/sops/age",
    ".vault.d",
    "Library/Keychains",
    ".config/google-chrome",
    ".config/chromium",
    ".config/BraveSoftware",
    ".mozilla/firefox",
    "Library/Application Support/Google/Chrome",
    "Library/Application Support/Firefox",
    "Library/Application Support/BraveSoftware",
    # Windows' (a user's folder seen from WSL, `/mnt/c/Users/NAME`): the Credential Manager's blobs, the
    # DPAPI master keys that decrypt them and every browser's saved passwords, the credential vault
    *("AppData/Roaming/Microsoft/Credentials", "AppData/Local/Microsoft/Credentials"),
    *(
        "AppData/Roaming/Microsoft/Protect",
        "AppData/Local/Microsoft/Vault",
        "AppData/Roaming/Microsoft/Vault",
    ),
    *("AppData/Local/Google/Chrome/User Data", "AppData/Local/Microsoft/Edge/User Data"),
    "run/secrets",  # a container's mounted secrets: Docker secrets, Kubernetes service-account tokens
    # the same tokens as the node's kubelet keeps them for each pod; a machine's saved Wi-Fi and VPN keys
    "kubernetes.io~secret",
    *("etc/NetworkManager/system-connections", "etc/wpa_supplicant"),
    # blockchain wallets: encrypted keystores (with their password, the key), and keys kept in the clear
    *(".foundry/keystores", ".ethereum/keystore", ".brownie/accounts", ".config/solana", ".near-credentials"),
    *(".electrum/wallets", ".bitcoin/wallets"),
    # people's mail, on a server or a desktop: password-reset links, one-time codes, private letters
    *("Maildir", "var/mail", "var/spool/mail", "var/vmail", ".thunderbird", "Library/Mail"),
)

# The credential stores of a machine as program code names them: a path written out or joined from its parts
# (`".aws/credentials"`, `os.path.join(home, ".aws", "credentials")`, `".ssh/id_rsa"`)
_PATH_JOIN = r"""[/\\"', +]+"""  # (a path's separator, or the quotes and commas of a join's arguments)
CODE_NAMED_STORES = (
    rf"\.(?:aws|cargo|docker|kube|gnupg|config{_PATH_JOIN}gcloud){_PATH_JOIN}(?:credentials|config)"
    rf"|\.ssh{_PATH_JOIN}id_\w+|\.netrc\b|\.git-credentials|\.docker{_PATH_JOIN}config\.json|\.npmrc\b|\.pypirc\b"
    rf"|\.azure{_PATH_JOIN}\w+Tokens?"
)

# System files that hold password hashes or privilege rules.
SYSTEM_SECRET_FILES: tuple[str, ...] = (
    *("/etc/shadow", "/etc/gshadow", "/etc/sudoers", "/etc/master.passwd"),
    # a cluster's administrator credentials, kept by its control plane
    *("/etc/kubernetes/admin.conf", "/etc/kubernetes/super-admin.conf", "/etc/kubernetes/kubelet.conf"),
    *("/etc/kubernetes/controller-manager.conf", "/etc/kubernetes/scheduler.conf"),
    *("/etc/rancher/k3s/k3s.yaml", "/etc/rancher/rke2/rke2.yaml", "/var/lib/rancher/k3s/server/token"),
    # CI runners' tokens (a GitLab runner's, a self-hosted GitHub runner's credentials)
    *("/etc/gitlab-runner/config.toml", "/home/gitlab-runner/.gitlab-runner/config.toml"),
)
# A service's own file of passwords under /etc (`/etc/mosquitto/passwd`, `/etc/ppp/chap-secrets`,
# `/etc/rsyncd.secrets`): the machine's account list `/etc/passwd` itself is public
SERVICE_PASSWORD_FILE = re.compile(
    r"^/etc/(?:[^/]+/)+(?:[\w-]*[._-])?(?:passwd|passwords?|htpasswd|pwfile|secrets)(?:\.db)?$"
    r"|^/etc/[\w-]+\.secrets$"
)
# Windows' files that hold passwords (as a WSL or PowerShell path names them, `/mnt/c/...`): an unattended
# install's answer file (the administrator's password), Group Policy Preferences' XML in SYSVOL (a
# `cpassword` anyone can decrypt), the registry hives with the accounts' hashes, a domain controller's
# database
WINDOWS_PASSWORD_FILE = re.compile(
    r"(?i)/(?:panther|sysprep)/(?:[\w-]+/)?(?:auto)?unattend(?:ed)?\.xml$|/sysprep\.(?:xml|inf)$"
    r"|/sysvol/.*/(?:groups|services|scheduledtasks|datasources|drives|printers)\.xml$"
    r"|/system32/config/(?:sam|security|system)$|/ntds\.dit$"
)
# A command-line tool's saved login in its own folder of the user's home (`~/.balena/token`,
# `~/.config/somecli/auth.json`, `~/.local/share/x/access-token`, `~/.config/itch/butler_creds`,
# `~/.julia/servers/HOST/auth.toml`), or in a file of the home's named for it (`~/.p4tickets`): whoever
# reads it acts as the user there. Written for a home under /home, /Users or /root: a path under the running
# user's home wherever it is (`/var/lib/jenkins`, `/srv/ci`) is matched as if it were `/home/user/...`
# (`rules.paths.is_secret_file`).
TOOL_LOGIN_FILE = re.compile(
    r"^/(?:root|home/[^/]+|Users/[^/]+)/\.(?:config/|local/share/)?[\w.-]+/(?:[\w.-]+/){0,2}"
    r"\.?(?:tokens?|auth|authtoken|(?:auth|access|refresh|session|api)[-_]?tokens?|(?:\w+[-_])?creds)"
    r"(?:\.(?:json|txt|ya?ml|toml))?$"
    r"|^/(?:root|home/[^/]+|Users/[^/]+)/\.\w*tickets$"
    # a tool's folder of secrets in its own folder (`~/.nextflow/secrets/store.json`)
    r"|^/(?:root|home/[^/]+|Users/[^/]+)/\.(?:config/|local/share/)?[\w.-]+/(?:[\w.-]+/)?secrets/[^/]+$"
    # (and Cursor's MCP servers of the user, with their environment: a project's own `.cursor/mcp.json`
    # names its servers' variables)
    r"|^/(?:root|home/[^/]+|Users/[^/]+)/\.cursor/mcp\.json$"
)
# A database server's own tables of logins and their password hashes, and of the passwords it keeps for
# foreign servers: reading every column of one reads them (`SELECT * FROM mysql.user`)
DATABASE_LOGIN_TABLES: tuple[str, ...] = (
    *("pg_authid", "pg_shadow", "pg_user_mapping", "pg_user_mappings", "mysql.user", "mysql.global_priv"),
    *("sys.sql_logins", "sys.syslogins", "master.dbo.syslogins", "sys.user$", "dba_users", "auth.users"),
)
# Columns of those tables that hold the hashes, under names `password` does not cover
DATABASE_HASH_COLUMNS: tuple[str, ...] = ("authentication_string", "umoptions", "spare4")

# Memory of running processes and of the kernel: the keys and tokens loaded there (`/proc/PID/mem` of an
# ssh-agent, `/proc/kcore`); a process id only known at run time (`/proc/$(pgrep X)/mem`) is one of them.
PROCESS_MEMORY = re.compile(
    r"^/proc/[^/]+/(?:task/[^/]+/)?(?:mem|environ)$|^/proc/kcore$|^/dev/k?mem$"
)  # a process's environment holds the tokens it was started with

# An ssh-agent's socket (another session's, another user's): whoever connects signs with the keys it holds
AGENT_SOCKET = re.compile(r"^/tmp/ssh-[^/]+/agent\.[^/]+$|/ssh-agent\.socket$|/S\.gpg-agent\.ssh$")

# Representative sensitive names a glob operand is tested against.
GLOB_PROBES: tuple[str, ...] = (
    ".env",
    ".env.local",
    ".envrc",
    "id_rsa",
    "id_ed25519",
    ".netrc",
    ".pgpass",
    ".git-credentials",
    "credentials",
    "server.key",
    "server.pem",
    ".npmrc",
    ".pypirc",
    ".ssh",
    ".aws",
    ".gnupg",
    ".vault-token",
    ".kube",
    ".docker",
)

# Commands that touch a file without giving its content back (metadata, permissions, loading a key into
# an agent, creating an empty file, deleting): a secret file named to them is not read.
# Options that make a non-reader read the file they name (`file -f NAMES` prints each line it reads).
READING_OPTIONS = {"file": frozenset({"-f", "--files-from", "-m", "--magic-file"})}
NON_READERS = frozenset(
    {"chmod", "chown", "chgrp", "chattr", "lsattr", "getfacl", "setfacl", "ls", "stat", "touch", "mkdir"}
    | {"test", "[", "[[", "file", "realpath", "readlink", "basename", "dirname", "du", "wc", "exa", "eza"}
    | {"rm", "rmdir", "unlink", "shred", "ssh-add", "ssh-keygen", "ssh-copy-id", "tree", "namei", "lsof"}
    # digests say nothing of a key; `source .env` loads variables into the shell, it prints nothing
    | {"md5sum", "sha1sum", "sha256sum", "sha512sum", "b2sum", "cksum", *SHELL_LOADERS}
)
# Sub-commands that name files without printing a line of them: whether git ignores, tracks or has changed
# a file (`git check-ignore -v .env`, `git ls-files .env`, `git status .env`), or untracks it
NON_READING_SUBCOMMANDS = {
    # (and the history that touched it: `git log --oneline -- .env` lists commits, unless told to print diffs)
    "git": frozenset(
        {"check-ignore", "check-attr", "ls-files", "status", "rm", "update-index", "mv", "log", "rev-list"}
    ),
    # the project's variables fetched into the file named, never printed
    "vercel": frozenset({"env pull", "pull"}),
    # a certificate's or a revocation list's fields (a certificate is public; a key given to them fails)
    "openssl": frozenset({"x509", "crl", "verify"}),
    # a keychain made, unlocked, listed or given a certificate to sign with (a CI runner's signing set-up):
    # its items are used there, never printed (`find-generic-password -w`, `dump-keychain -d`, `export` are)
    "security": frozenset(
        {"create-keychain", "delete-keychain", "unlock-keychain", "lock-keychain", "set-keychain-settings"}
        | {"set-key-partition-list", "list-keychains", "default-keychain", "import", "show-keychain-info"}
    ),
    # a new signing key generated into the file named (ESP's secure boot, MCUboot's imgtool, Tauri's
    # updater, minisign, age): written, never read or printed
    **dict.fromkeys(
        ("espsecure", "espsecure.py"), frozenset({"generate_signing_key", "generate_flash_encryption_key"})
    ),
    "imgtool": frozenset({"keygen"}),
    "cargo": frozenset({"tauri signer"}),  # (`cargo tauri signer generate -w KEY`; `sign` uses it, unprinted)
    "tauri": frozenset({"signer generate"}),
    "age-keygen": frozenset({"-o"}),
}
# Programs that make new key material (`wg genkey`, `openssl genpkey`, `age-keygen`): a file their output is
# written into, where there was none, holds a new key, not a credential replaced
KEY_GENERATORS: dict[str, frozenset[str]] = {
    "wg": frozenset({"genkey", "genpsk"}),
    "openssl": frozenset({"genpkey", "genrsa", "rand", "-genkey"}),
    "age-keygen": frozenset(),
    "minisign": frozenset({"-G"}),
}


def generates_key(argv: tuple[str, ...]) -> bool:
    """The command makes new key material and prints it (`wg genkey`, `openssl genrsa 4096`, `age-keygen`)."""
    words = KEY_GENERATORS.get(argv[0].rsplit("/", 1)[-1]) if argv else None
    return words is not None and (not words or bool(words & set(argv[1:])))


# Options with which such a sub-command prints the files' content after all (`git log -p -- .env`)
CONTENT_OPTIONS = {
    "git": frozenset(
        {"-p", "-u", "--patch", "-L", "--word-diff", "--color-words", "--full-diff", "--cc", "-m"}
    )
}
# Options with which a key tool gives back only the public half of the private key it reads (`openssl rsa
# -in rsa_key.p8 -pubout -out rsa_key.pub`, as Snowflake's key-pair set-up does): no secret is shown.
PUBLIC_HALF_OPTIONS = {
    # (`openssl pkcs12 -nokeys`: a bundle's certificates, none of its private keys)
    "openssl": frozenset({"-pubout", "-nokeys"}),
    "wg": frozenset({"pubkey"}),  # (`wg genkey | tee key | wg pubkey`: the public key of what it is fed)
    # the public key derived from a private one (`ssh-keygen -y -f key`, `age-keygen -y keys.txt`)
    "ssh-keygen": frozenset({"-y"}),
    "age-keygen": frozenset({"-y"}),
}
# Options with which a reader prints no line of what it reads, only counts, names or a status (`grep -c ''
# .env`, `grep -l KEY -r .`, `grep -q X f`): the file is not read out.
COUNTING_OPTIONS = {
    name: frozenset(
        {"-c", "--count", "-l", "--files-with-matches", "-L", "--files-without-match", "-q", "--quiet"}
    )
    for name in ("grep", "egrep", "fgrep", "rg", "zgrep")
}


# Programs that only pass on, drop or reorder the lines they read (no file written, nothing run or sent):
# between a reader and a program that prints none of what it reads, they show nothing either
PIPE_FILTERS = frozenset(
    {"cat", "grep", "egrep", "fgrep", "rg", "sort", "uniq", "cut", "tr", "head", "tail", "base64", "rev"}
)
# `jq 'keys'`, `jq '.data | keys'`, `jq length`: an object's key names or a count, no value; `jq -r
# '.[].name'`: each item's name (a vault's item, a secret's, a key's), never its value
_JQ_NAMES = re.compile(
    r"(?:\.[\w\[\]\"-]*\s*\|\s*)?(?:keys(?:_unsorted)?(?:\[\])?|length)"
    r"|\.(?:\[\]|\w+\[\])?\.(?:name|id|title|type|label|folder|created|updated|revisionDate)"
)
# Programs that put what they read on the clipboard and print none of it
CLIPBOARD_WRITERS = frozenset({"pbcopy", "xclip", "xsel", "wl-copy", "clip.exe", "clip"})

# Programs that print only ciphertext of what they read, sealed for the keys the project or its cluster
# holds (`kubeseal` with the controller's certificate, `sops -e` with the keys `.sops.yaml` names), and the
# options that would seal it for a key someone else holds instead
_SEALERS: dict[str, tuple[frozenset[str], frozenset[str]]] = {  # name: (words that seal, foreign-key options)
    "kubeseal": (frozenset(), frozenset({"--cert", "--controller-name", "--controller-namespace"})),
    # (`age -p`: sealed with a passphrase the user types; a recipient's key is someone's to open)
    "age": (frozenset({"-p", "--passphrase"}), frozenset({"-r", "-R", "--recipient", "--recipients-file"})),
    "sops": (
        frozenset({"-e", "--encrypt"}),
        frozenset(
            {"--age", "-a", "--pgp", "-p", "--kms", "-k", "--gcp-kms", "--azure-kv", "--hc-vault-transit"}
        ),
    ),
}


def prints_no_content(argv: tuple[str, ...], cwd: str = "") -> bool:
    """A program that prints nothing of the lines it reads: a count (`wc`, `grep -c`, `grep -q`), the names
    of `NAME=value` lines (`names_only`), an object's keys (`jq keys`)."""
    name, args = argv[0].rsplit("/", 1)[-1], argv[1:]
    if name == "wc":
        return not any(not w.startswith("-") for w in args)  # the count of its input, not of files it names
    counting = COUNTING_OPTIONS.get(name)
    if counting and any(
        w in counting or (w[:1] == "-" and w[1:2] != "-" and set(w[1:]) & {"c", "q", "l", "L"}) for w in args
    ):
        return True
    if name == "jq":
        filters = [w for w in args if not w.startswith("-")]
        return len(filters) == 1 and _JQ_NAMES.fullmatch(filters[0].strip()) is not None
    if name in CLIPBOARD_WRITERS and "-o" not in args and "--output" not in args:
        return True  # `bw get password github.com | pbcopy`: onto the clipboard, nothing printed
    if set(args) & PUBLIC_HALF_OPTIONS.get(name, frozenset()):
        return True  # `... | wg pubkey`: the public half of what it reads
    return names_only(argv) or stores_secret(argv, cwd=cwd) or _seals_for_own_keys(name, args)


def _seals_for_own_keys(name: str, args: tuple[str, ...]) -> bool:
    """`... | kubeseal --format yaml`, `sops -e /dev/stdin`: ciphertext only, for the project's own keys."""
    sealer = _SEALERS.get(name)
    if sealer is None:
        return False
    seals, foreign = sealer
    options = {w.split("=", 1)[0] for w in args if w.startswith("-")}
    return (not seals or bool(options & seals)) and not options & foreign


# Commands that keep what they read as a secret, in the project's own store, and print none of it: .NET's
# user secrets, the keyrings, the project's secret settings on its forge and hosts (`gh secret set NAME`
# without another repository, `wrangler secret put`, `vercel env add`, `fly secrets set K=V`)
_SECRET_STORES = (  # (command words, options that name another owner's store, a deployment's own store)
    (("dotnet", "user-secrets", "set"), (), False),
    (("secret-tool", "store"), (), False),
    (("pass", "insert"), (), False),
    (("gh", "secret", "set"), ("-R", "--repo", "-o", "--org", "-u", "--user"), True),
    (("wrangler", "secret", "put"), (), True),
    (("vercel", "env", "add"), (), True),
    (("fly", "secrets", "set"), (), True),
    (("flyctl", "secrets", "set"), (), True),
    (("heroku", "config:set"), (), True),
    (("netlify", "env:set"), (), True),
    (("supabase", "secrets", "set"), (), True),
    (("doppler", "secrets", "set"), (), True),
    (("firebase", "functions:secrets:set"), (), True),
    (("railway", "variables"), (), True),
    # the clouds' secret stores, in the account the client is signed in to
    (("gcloud", "secrets", "create"), (), True),
    (("gcloud", "secrets", "versions", "add"), (), True),
    (("aws", "secretsmanager", "create-secret"), (), True),
    (("aws", "secretsmanager", "put-secret-value"), (), True),
    (("aws", "ssm", "put-parameter"), (), True),
    (("az", "keyvault", "secret", "set"), (), True),
    # a manifest applied to the cluster the user's context names (`kubectl create secret generic x
    # --from-env-file=.env --dry-run=client -o yaml | kubectl apply -f -`): kept there, only its name printed
    (("kubectl", "apply"), ("--context", "--kubeconfig", "-s", "--server", "--cluster"), True),
    (("oc", "apply"), ("--context", "--kubeconfig", "-s", "--server", "--cluster"), True),
)


def stores_secret(argv: tuple[str, ...], *, deployed: bool = False, cwd: str = "") -> bool:
    """`az keyvault secret show ... | dotnet user-secrets set KEY`: the value read goes into the project's
    own secret store, and nothing of it is printed (`deployed`: a store the project's deployment reads, on
    its forge or host, as `fly secrets set K=V` is; not a developer's own keyring). A store named by an
    option is another owner's unless it is the project's own repository (`gh secret set K --repo
    OWNER/REPO` of the origin of the checkout at `cwd`)."""
    name = argv[0].rsplit("/", 1)[-1]
    words = [w for w in argv[1:] if not w.startswith("-")]
    for command, elsewhere, hosted in _SECRET_STORES:
        if name == command[0] and words[: len(command) - 1] == list(command[1:]):
            return (hosted or not deployed) and not _names_another_store(argv[1:], elsewhere, cwd)
    # any tool's keystore or secret store given the value on its input (`elasticsearch-keystore add --stdin
    # K`, `filebeat keystore add ES_PWD --stdin`): kept on this machine, printed nowhere
    named = {p for w in (name, *words[:3]) for p in re.split(r"[-_.:]", w.lower())}
    return (
        not deployed
        and bool(named & _STORE_NOUNS)
        and bool(named & _STORE_VERBS)
        and ("--stdin" in argv or argv[-1] == "-")
    )


_STORE_NOUNS = frozenset(
    {"keystore", "keyring", "keychain", "secret", "secrets", "credential", "credentials"}
)
_STORE_VERBS = frozenset({"add", "set", "put", "store", "create", "import", "insert"})


def _names_another_store(args: tuple[str, ...], elsewhere: tuple[str, ...], cwd: str) -> bool:
    for i, word in enumerate(args):
        option, eq, value = word.partition("=")
        if option not in elsewhere:
            continue
        value = value if eq else (args[i + 1] if i + 1 < len(args) else "")
        if option in ("-R", "--repo") and cwd and _own_repository(value, cwd):
            continue
        return True
    return False


def _own_repository(named: str, cwd: str) -> bool:
    """`named` (`OWNER/REPO`, `HOST/OWNER/REPO` or its URL) is the origin of the checkout at `cwd`."""
    from limen.facts.hosts import project_repository, repository_identity

    own = project_repository(cwd)
    if own is None:
        return False
    parts = named.lower().strip("/").split("/")
    if len(parts) == 2:  # `OWNER/REPO`: on the host `gh` is logged in to, the origin's
        return "/".join(parts) == own[1]
    return repository_identity(named if "://" in named else f"https://{named}") == own


def names_only(argv: tuple[str, ...]) -> bool:
    """A reader that prints only the names of `NAME=value` lines, never a value: `cut -d= -f1 .env`,
    `awk -F= '{print $1}' .env`, `grep -o '^[A-Z_]*' .env`."""
    name, args = argv[0].rsplit("/", 1)[-1], list(argv[1:])
    if name == "cut":  # (`heroku config | cut -d: -f1`: a `NAME: value` listing's names)
        words = " ".join(args).replace("'", "").replace('"', "")
        return bool(re.search(r"(?:^|\s)(?:-d\s*|--delimiter=)[=:](?:\s|$)", words)) and bool(
            re.search(r"(?:^|\s)(?:-f\s*|--fields=)1(?:\s|$)", words)
        )
    if name in ("awk", "gawk", "mawk"):
        split_at_equals = "-F=" in args or ("-F" in args[:-1] and args[args.index("-F") + 1] == "=")
        return split_at_equals and any(re.fullmatch(r"\{\s*print\s+\$1;?\s*\}", w) for w in args)
    if name in ("grep", "egrep", "rg"):  # `grep -o '^[A-Z_]*' .env`: what matches from a line's start, short
        only = any(w == "--only-matching" or re.fullmatch(r"-[a-zA-Z]*o[a-zA-Z]*", w) for w in args)
        patterns = [w for w in args if not w.startswith("-")][:1]  # of `=`, is the name and nothing after it
        found = _LEADING_CLASS.fullmatch(patterns[0]) if only and patterns else None
        if found is not None:
            letters = found.group(1)
            if letters.startswith("^"):
                return "=" in letters
            return _NAME_CLASS.fullmatch(letters) is not None
        # `grep -oE '^[A-Z_]+_(API_KEY|TOKEN)='`: name letters, classes and alternatives of them, up to `=`
        return only and bool(patterns) and _NAME_UP_TO_EQUALS.fullmatch(patterns[0]) is not None
    return False


# A pattern of a variable's name only, ending at its `=`: letters, digits and `_`, classes of them (ranges
# `A-Z`, `a-z`, `0-9` only: `[0-z]` takes in `=` and what follows), groups of alternative names
# (each written so that a text has one way to match it: a pattern that can split a word many ways backtracks
# without end on a word it does not match, `(A|B|C)=[^ ]+`)
_NAME_CLASS = re.compile(r"[A-Za-z0-9_-]+")  # (the ranges' own letters, `A-Z`, are among these)
_NAME_UP_TO_EQUALS = re.compile(
    r"\^?(?:\[[A-Za-z0-9_-]+\][*+?]?|[A-Za-z0-9_]|\([A-Za-z0-9_]+(?:\|[A-Za-z0-9_]+)*\)[*+?]?)+="
)


_GREP_NAMES = frozenset({"grep", "egrep", "fgrep", "rg"})
_VARIABLE_PATTERN = re.compile(r"\^?([A-Za-z][A-Za-z0-9_]*(?:\.[A-Za-z][A-Za-z0-9_-]*)*)(=?)")


# An extended pattern naming several variables at the start of their lines (`^(APP_ENV|APP_URL)=`)
_VARIABLES_LISTED = re.compile(r"\^\(([A-Za-z_][A-Za-z0-9_]*(?:\|[A-Za-z_][A-Za-z0-9_]*){0,15})\)=")


def plain_variables_only(argv: tuple[str, ...]) -> bool:
    """A search that prints only the lines of one variable whose name holds no credential: `grep '^PORT='
    .env`, `grep -w NODE_ENV .env`, `grep PUBLIC_STORE_DOMAIN .env` (a whole name with a plain suffix: a
    host, a domain, a port, a region), a property's dotted name (`grep org.gradle.jvmargs
    gradle.properties`). A bare word (`grep STORE .env`) may be part of a secret's name."""
    if argv[0].rsplit("/", 1)[-1] not in _GREP_NAMES:
        return False
    args = argv[1:]
    flags = "".join(w[1:] for w in args if w.startswith("-") and not w.startswith("--"))
    if set(flags) & set("vefrR") or any(
        w.startswith(("--invert", "--regexp", "--file", "--recursive")) for w in args
    ):
        return False
    patterns = [w for w in args if not w.startswith("-")][:1]
    listed = _VARIABLES_LISTED.fullmatch(patterns[0].strip("'\"")) if patterns and "E" in flags else None
    if listed is not None:  # `grep -E '^(APP_ENV|APP_URL|DB_DATABASE)=' .env`: each a named, plain variable
        names = listed.group(1).split("|")
        return all(n and not secret_variable(n) and not re.search(_SECRET_NAME, n) for n in names)
    found = _VARIABLE_PATTERN.fullmatch(patterns[0].strip("'\"")) if patterns else None
    if found is None:
        return False
    variable = found.group(1)
    if secret_variable(variable) or re.search(_SECRET_NAME, variable):
        return False
    anchored = (
        patterns[0].lstrip("'\"").startswith("^") or bool(found.group(2)) or bool(set(flags) & set("wx"))
    )
    plain = "_" in variable and variable.isupper() and NOT_SECRET_VARIABLE.search(variable) is not None
    dotted = variable.count(".") >= 1 and len(variable) >= 8  # a property's whole name: `org.gradle.jvmargs`
    return anchored or plain or dotted


# Files of `NAME=value` lines (dotenv files, Java properties, INI credentials): what precedes `=` is a name;
# a key file or a YAML file has none, and all of a line of it is its content
_ASSIGNMENT_FILE = re.compile(
    r"(?:^|[./])env(?:rc)?(?:\.[\w.-]+)?$|\.(?:properties|ini|cfg)$|^credentials$|^\.(?:npmrc|pypirc)$"
)


def holds_assignments(path: str) -> bool:
    """The file at `path` is, by its name, one of `NAME=value` lines (`.env.local`, `prod.env`, `.npmrc`)."""
    return _ASSIGNMENT_FILE.search(path.rsplit("/", 1)[-1]) is not None


# A pattern that matches one character class from a line's start (`^[A-Z_]*`, `^[^=]+`, `^[A-Za-z0-9_]+=`)
_LEADING_CLASS = re.compile(r"\^\[([^\]\[]+)\][*+]=?")


# Commands that copy their sources to a destination (the last operand, or `-t DIR`): the destination is
# written, not read.
COPIERS = frozenset({"cp", "mv", "install", "ln"})
# Options whose file is a credential the command authenticates with, not data it sends or prints.
CREDENTIAL_OPTIONS = frozenset(
    {"-i", "-E", "--cert", "--key", "--cacert", "--proxy-cert", "--proxy-key", "--netrc-file", "--identity"}
    | {"--certificate", "--private-key", "--ca-certificate", "-cert", "-key", "-CAfile", "--ssh-key"}
    | {"--identity-file", "--key-file", "--keyfile", "--credentials-file", "--kubeconfig", "--env-file"}
    # TLS clients' own (mosquitto, docker, kafka tools) and signing tools' keys (`imgtool sign -k KEY`)
    | {"-k", "--cafile", "--capath", "--ca-file", "--cert-file", "--client-cert", "--client-key", "--tls-key"}
    | {"--tlscacert", "--tlscert", "--tlskey", "--tls-cert", "--tls-ca", "--signing-key", "--sign-key"}
    # Java's and code signing's key stores (keytool, jarsigner, apksigner --ks, osslsigncode -pkcs12): signed
    # with, converted from or listed (certificates only), never printed
    | {"-keystore", "-srckeystore", "--ks", "-pkcs12"}
)


def credential_option(word: str) -> bool:
    """An option whose file is a credential the program authenticates or signs with: one of
    `CREDENTIAL_OPTIONS`, or a long option named for a key, certificate or key store file
    (`--jwt-key-file`, `--service-account-key-file`, `--client-keystore`)."""
    return word in CREDENTIAL_OPTIONS or _CREDENTIAL_OPTION_NAME.fullmatch(word) is not None


_CREDENTIAL_OPTION_NAME = re.compile(
    r"--(?:[a-z0-9]+-)*(?:key-?file|keystore|keytab|cert-?file|certificate-?file|identity-?file"
    r"|credentials?-?file|password-?file|pass-?file|token-?file|secret-?file)"
)

# A program's own options whose file is the credential it authenticates with (`kinit -kt svc.keytab`), where
# the same letters mean other things elsewhere (`cat -t`, `cp -t DIR`)
PROGRAM_CREDENTIAL_OPTIONS: dict[str, frozenset[str]] = {
    "kinit": frozenset({"-t", "-kt", "--keytab", "-c"}),
    "k5start": frozenset({"-f", "-k"}),
}

# Options whose file the command writes (a key it generates, a certificate it issues): not a read of it.
OUTPUT_OPTIONS = frozenset(
    {"-keyout", "-out", "--out", "-o", "--output", "--output-file", "--keyout", "-genkey-out"}
    | {"-key-file", "-cert-file", "-p12-file"}  # (mkcert's: the local CA's certificate it issues)
)

# Sweeps for key material: tools whose job is finding secrets, and patterns that only key material has.
SWEEPERS = frozenset({"trufflehog", "gitleaks", "detect-secrets", "noseyparker", "ggshield", "whispers"})
SEARCHERS = frozenset({"grep", "egrep", "fgrep", "rg", "ag", "ack", "git-grep", "zgrep"})
# The prefixes of the services' tokens, by which a search looks for tokens themselves
_TOKEN_PREFIXES = (
    r"AKIA|ASIA|gh[pousr]_|github_pat|glpat-|xox[abposr]-|sk_live|sk-(?:ant|proj)|AIza|hf_|npm_|rk_live"
    r"|hv[sb]\\?\.|[xt]prv"
)
KEY_MATERIAL = re.compile(
    r"(?i)private[ _-]?key|begin[ _-]+(?:openssh|pgp private|encrypted)|aws_secret|secret_access_key|"
    r"password|passwd|api[_-]?key|apikey|client_secret|secret[_-]?key|auth[_-]?token|access[_-]?token|"
    r"bearer|mnemonic|seed phrase|wallet|jaas|"
    # a payment terminal's and an HSM's keys (terminal and zone master keys, PIN keys, DUKPT's base keys)
    r"\b(?:tmk|tpk|zmk|zpk|ipek|bdk)\b|" + _TOKEN_PREFIXES
)
TOKEN_SHAPES = re.compile(r"(?i)" + _TOKEN_PREFIXES)
# A regular expression's run of random characters long enough to be a token (`[A-Za-z0-9]{64}`,
# `[a-zA-Z0-9_-]{32,}`, base58's `[1-9A-HJ-NP-Za-km-z]{50}`): a class of ranges of upper- and lower-case
# letters and digits, twenty or more of them
_TOKEN_RUN = re.compile(
    r"\[(?=[^\]]*[A-Z]-[A-Z])(?=[^\]]*[a-z]-[a-z])(?=[^\]]*\d-\d)[^\]]{0,24}\]\{([2-9]\d|\d{3,})(?:,\d*)?\}"
)
_GROUP = re.compile(r"\(\??:?([^()]*)\)")
_REGEX_SYNTAX = re.compile(r"\\[bBsSdDwW]|\[[^\]]*\]|\{\d*,?\d*\}|[\\^$*+?.]")


def names_token(pattern: str) -> bool:
    """A search pattern that looks for tokens themselves, by a service's prefix or a long run of random
    characters (Vault's `hvs.`, `[A-Za-z0-9]{64}`), rather than for the words around them (`password`)."""
    return bool(TOKEN_SHAPES.search(pattern) or _TOKEN_RUN.search(pattern))


# A search pattern that captures the value after a credential's name (`authorization: (bearer|basic)
# [A-Za-z0-9._=+/-]+`, `password=[^&]*`, `"token":"\S+`): the credentials themselves, not the lines about them
_CREDENTIAL_VALUE = re.compile(
    r"(?i)(?:bearer|basic|authorization|passw(?:or)?d|pwd|secret|token|api[_-]?key|access[_-]?key|cookie"
    r"|session[_-]?id)[^\n]{0,48}?(?:\[[^\]]+\](?:[+*]|\{\d+,\d*\})|\\S[+*]|\.[+*]|\\w[+*])"
)


def captures_credential_values(pattern: str) -> bool:
    """A search pattern that matches a credential's value after its name (`_CREDENTIAL_VALUE`)."""
    return bool(_CREDENTIAL_VALUE.search(pattern))


def names_key_material(pattern: str) -> bool:
    """A search pattern that looks for key material, as written or as a regular expression: `(sk|rk)_live_
    [0-9a-zA-Z]{24,}` looks for `sk_live_` and `rk_live_` (each alternative of a group, the syntax taken
    out), and `[0-9]{4}~[A-Za-z0-9]{64}` for a long run of random characters, a token's shape."""
    if KEY_MATERIAL.search(pattern) or _TOKEN_RUN.search(pattern):
        return True
    variants = [pattern]
    for _ in range(3):  # a group's alternatives, the innermost first, a few levels deep
        expanded = []
        for variant in variants:
            group = _GROUP.search(variant)
            if group is None:
                expanded.append(variant)
                continue
            for choice in group.group(1).split("|")[:8]:
                expanded.append(variant[: group.start()] + choice + variant[group.end() :])
        variants = expanded[:32]
    alternatives = [a for v in variants for a in _REGEX_SYNTAX.sub("", v).split("|")]
    return any(
        KEY_MATERIAL.search(a) or _CREDENTIAL_SEARCH_WORD.fullmatch(a.strip()) for a in alternatives[:64]
    )


# An alternative of a search pattern that is a credential's word cut short or said another way (`grep -iE
# 'passw|pwd|secret'`): what such a search finds in a settings file is the line that holds the credential
_CREDENTIAL_SEARCH_WORD = re.compile(r"(?i)passw\w*|pwd|secrets?|credentials?")


# Names that hold a private key or a public certificate alike (`server.pem`, `ca.pem`): such a file that
# exists and holds only certificates or public keys (`PUBLIC_MATERIAL`, and no `PRIVATE_MATERIAL`) is
# read as what it is, public.
EITHER_MATERIAL_NAMES = re.compile(r"(?i)^.+\.pem$")
PUBLIC_MATERIAL = re.compile(r"-----BEGIN (?:TRUSTED )?(?:CERTIFICATE|PUBLIC KEY|X509 CRL)-----")
PRIVATE_MATERIAL = re.compile(r"(?i)PRIVATE KEY|BEGIN [A-Z ]*(?:KEY|PARAMETERS|ENCRYPTED)")
# Folders of public certificates: looking for `*.pem` there finds no secret.
PUBLIC_CERT_ROOTS: tuple[str, ...] = (
    "/etc/ssl/certs",
    "/etc/pki/ca-trust",
    "/etc/pki/tls/certs",
    "/etc/ca-certificates",
    "/usr/share/ca-certificates",
    "/usr/local/share/ca-certificates",
    "/usr/lib/ssl/certs",
)
# `find -name` patterns that select secret files.
SECRET_FILE_GLOBS = re.compile(
    r"(?i)\.(?:pem|key|p8|p12|pfx|jks|keystore|ppk|kdbx|ovpn)\b|id_(?:rsa|dsa|ecdsa|ed25519)|\.env\b|"
    r"credentials|\.netrc|\.pgpass|\.npmrc|\.pypirc|\.git-credentials|secret|wallet|\.aws|\.ssh|token"
)


@dataclass(frozen=True, slots=True)
class _Compiled:
    printer: Printer
    needs: tuple[re.Pattern[str], ...]
    operand: re.Pattern[str] | None


def _compiled() -> tuple[dict[str, tuple[_Compiled, ...]], tuple[tuple[str, tuple[_Compiled, ...]], ...]]:
    exact: dict[str, list[_Compiled]] = {}
    prefix: dict[str, list[_Compiled]] = {}
    for p in PRINTERS:
        entry = _Compiled(
            p, tuple(re.compile(n) for n in p.needs), re.compile(p.operand) if p.operand else None
        )
        if p.program.endswith("*"):
            prefix.setdefault(p.program[:-1], []).append(entry)
        else:
            exact.setdefault(p.program, []).append(entry)
    return (
        {k: tuple(v) for k, v in exact.items()},
        tuple((k, tuple(v)) for k, v in prefix.items()),
    )


_EXACT, _PREFIX = _compiled()
PRINTER_PROGRAMS = frozenset(_EXACT)
PRINTER_PREFIXES = tuple(p for p, _ in _PREFIX)


def _operands(argv: tuple[str, ...]) -> list[str]:
    return [w for w in argv[1:] if w and not w.startswith("-")]


def _matches(entry: _Compiled, argv: tuple[str, ...], operands: list[str]) -> bool:
    words = entry.printer.words
    i = 0
    if words:
        # The first word within the first five operands (an option's value or a service's nouns may precede
        # it: `az servicebus namespace authorization-rule keys list`), then in order.
        try:
            start = operands.index(words[0], 0, 5)
        except ValueError:
            return False
        i = start + 1
        for word in words[1:]:
            if i >= len(operands) or operands[i] != word:
                return False
            i += 1
    if entry.operand is not None and (i >= len(operands) or not entry.operand.search(operands[i])):
        return False
    if entry.needs:
        rest = " ".join(argv[1:])
        return all(p.search(rest) for p in entry.needs)
    return True


# Secret stores whose `edit` decrypts them into the editor the environment names, and the words that print
# them instead: with a printing program as the editor (`EDITOR=cat rails credentials:edit`), the edit prints
# what the second form does
EDITED_STORES: dict[str, tuple[str, tuple[str, ...]]] = {
    "rails": ("credentials:edit", ("credentials:show",)),
    "ansible-vault": ("edit", ("view",)),
    "kubectl": ("edit", ("get", "-o", "yaml")),
    "oc": ("edit", ("get", "-o", "yaml")),
    "pass": ("edit", ("show",)),
    "gopass": ("edit", ("show",)),
    "sops": ("edit", ("-d",)),
}


def shown_in_editor(argv: tuple[str, ...]) -> tuple[str, ...] | None:
    """The command that prints what `argv` opens in the editor (`rails credentials:edit` -> `rails
    credentials:show`), or None when it edits no secret store. (`sops FILE` edits FILE: `sops -d FILE`.)"""
    if not argv:
        return None
    name = argv[0].rsplit("/", 1)[-1]
    found = EDITED_STORES.get(name)
    if found is None:
        return None
    word, shown = found
    if word in argv[1:]:
        at = argv.index(word, 1)
        return (argv[0], *argv[1:at], *shown, *argv[at + 1 :])
    if name == "sops" and not any(w in ("-d", "--decrypt", "decrypt", "-e", "--encrypt") for w in argv[1:]):
        return (argv[0], *shown, *argv[1:])
    return None


@lru_cache(maxsize=512)
def printer_tool(server: str, words: str) -> Printer | None:
    """The command a server's tool stands for, when it prints a credential: `mcp__airflow__get_connection`
    is `airflow connections get` (a connection with its password), `databricks.get_secret` is `databricks
    secrets get-secret`. `words` are the tool's words (`get_connection`); plurals count as singulars."""
    entries = _EXACT.get(server)
    if not entries:
        return None
    have = {w.removesuffix("s") for w in words.split("_") if w}
    for compiled in entries:
        entry = compiled.printer
        needed = {w.removesuffix("s") for word in entry.words for w in re.split(r"[-_:]", word) if w}
        if needed and needed <= have and not entry.needs and not entry.operand:
            return entry
    return None


_JSONPATH = re.compile(r"(?:^|\s)(?:-o|--output)(?:=|\s+)jsonpath=(\S+)")
# a field of a secret's data: `.data.REDIS_HOST`, `.data['DB_HOST']`, `.data.tls\.key` (an escaped dot is
# part of the name)
_DATA_FIELD = re.compile(r"\.data(?:\.((?:[A-Za-z_]|\\\.)(?:[\w-]|\\\.)*)|\[['\"]?([\w.-]+)['\"]?\])?")


def _plain_fields_only(argv: tuple[str, ...]) -> bool:
    """A secret's output narrowed by a JSONPath to fields that describe it (`{.data.REDIS_HOST}`,
    `{.data.username}`: `plain_field`); the whole `.data`, a range over it or any other field (`tls.key`)
    print what may be a credential."""
    found = _JSONPATH.search(" ".join(argv[1:]))
    if found is None:
        return False
    template = found.group(1).strip("'\"")
    fields = [m.group(1) or m.group(2) for m in _DATA_FIELD.finditer(template)]
    if not fields or "range" in template or "*" in template:
        return False
    return all(name and not secret_variable(name) and plain_field(name) for name in fields)


# The last words of the names of a stored secret's fields that describe it rather than hold it: where it
# is used, by whom, since when (`REDIS_HOST`, `db_username`, `creationTimestamp`, `api_url`). A field is
# judged by these and by nothing else: a field named otherwise (`k4`, `tls.key`, `value`, `data`) may hold
# the secret, so a name nobody listed asks rather than passes.
PLAIN_FIELD_WORDS = frozenset(
    {
        *("host", "hostname", "hosts", "port", "url", "uri", "endpoint", "domain", "server"),
        *("region", "zone", "user", "username", "email", "owner", "name", "names", "id", "ids"),
        *("database", "schema", "bucket", "path", "version", "created", "updated", "expires"),
        *("expiry", "expiration", "timestamp", "date", "time", "ttl", "duration", "description"),
        *("type", "kind", "enabled", "status", "tags", "labels", "annotations", "metadata"),
        *("attributes", "mode", "count", "size", "algorithm", "issuer", "audience", "crt", "cert"),
        *("certificate", "pub", "on", "at", "before", "after", "tenant", "subscription", "account", "arn"),
        *("project", "namespace", "level", "format", "timeout", "interval", "limit", "flag", "flags"),
    }
)  # (a certificate, a `.pub`: the public half every peer is shown; `on`, `at`: a date's, `expiresOn`)
# the words of a name that say the field holds a credential or a part of one, wherever they stand
_CREDENTIAL_WORD = re.compile(r"(?i)pass|pwd|secret|token|key|credential|auth|private|salt|sign|sas|dsn|conn")
# a data store's address often carries its password (`postgres://app:PW@db/app`): its URL is no plain field
_STORE_WORDS = frozenset(
    {"database", "db", "redis", "postgres", "postgresql", "pg", "mysql", "mongo", "mongodb"}
)


def plain_field(name: str) -> bool:
    """A field of a stored secret that describes it (its last word in `PLAIN_FIELD_WORDS`, no word naming a
    credential), so printing it prints no credential."""
    words = [w.lower() for w in _WORD_PIECE.findall(name)]
    if not words or words[-1] not in PLAIN_FIELD_WORDS or _CREDENTIAL_WORD.search(name):
        return False
    return words[-1] not in ("url", "uri") or not _STORE_WORDS.intersection(words)


# The names of fields that hold what a person gives in confidence or a credential (`ssn`, `dob`,
# `credit_score`, `card_number`, `password_hash`): a field list that gains one shows it to more eyes
SENSITIVE_FIELD = re.compile(
    r"(?i)(?:^|_)(?:ssn|social_?security\w*|dob|date_?of_?birth|birth_?date|passport\w*|national_?id|tax_?id|tin"
    r"|credit_?score|card_?number|pan|cvv|cvc|iban|account_?number|routing_?number|password\w*|pin|salary"
    r"|diagnos\w*|mrn|medical\w*|drivers?_?licen[cs]e\w*|licen[cs]e_?number|secret\w*|token|api_?key)$"
)
# the keys under which stores keep a secret's values (a Kubernetes secret's `.data`, an app's `.env`)
_SECRET_HOLDERS = frozenset({"data", "stringdata", "env", "environment", "secrets", "credentials", "auth"})


def plain_path(keys: list[str]) -> bool:
    """A path of keys into a secret's document that ends at a plain field (`.database.host`,
    `Parameter.Name`), none of its keys naming a credential or what holds a secret's values."""
    return (
        bool(keys)
        and plain_field(keys[-1])
        and not any(_CREDENTIAL_WORD.search(k) or k.lower() in _SECRET_HOLDERS for k in keys)
    )


def printer(argv: tuple[str, ...]) -> Printer | None:
    """The credential a command prints (`gh auth token` -> a GitHub token), or None."""
    if not argv:
        return None
    name = argv[0].rsplit("/", 1)[-1]
    entries = _EXACT.get(name)
    if entries is None:
        entries = next((e for p, e in _PREFIX if name.startswith(p) and len(name) > len(p)), None)
        if entries is None:
            return None
    operands = _operands(argv)
    for entry in entries:
        if _matches(entry, argv, operands):
            if name in ("kubectl", "oc") and _plain_fields_only(argv):
                return None  # `-o jsonpath='{.data.REDIS_HOST}'`: a field that holds no credential
            return entry.printer
    return None


# Key material whose loss cannot be undone from anywhere else: signing keystores, App Store Connect and
# service keys, private keys, certificate bundles (a public half, `*.pub` or `*-public.key`, is not)
KEY_FILES = re.compile(
    r"(?i)(?:^|/)(?:[^/]*keystore[^/]*|[^/]+\.(?:p8|p12|pfx|jks|keystore|key|pem)|id_(?:rsa|ed25519|ecdsa|dsa)"
    r"|keys|signing|certificates?)/?$"
)


_WORD_PIECE = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[0-9]+")


def wordy(run: str) -> bool:
    """A run of words (`StructureDefinition-us-core-observation-lab`, `BackendOAuth2Guide`): pieces split at
    separators and case changes, each a pronounceable word or a short number. Encoded data splits into
    fragments without vowels and numbers inside words (`aGVsbG8gd29ybGQ`, `erXuFYUfucBZaryVks`)."""
    pieces = _WORD_PIECE.findall(run)
    if "".join(pieces) != re.sub(r"[-_+=]", "", run):
        return False
    letters = [p for p in pieces if p.isalpha()]
    long = [p for p in letters if len(p) >= 3]
    return (
        sum(len(p) for p in long) >= 0.75 * sum(len(p) for p in pieces)
        and all(re.search(r"[aeiouyAEIOUY]", p) for p in long)
        and all(len(p) <= 4 for p in pieces if p.isdigit())
        and all(len(p) <= 5 for p in letters if p.isupper())  # (acronyms are short: API, FHIR, OAuth's O)
    )


# Keys everyone has: the accounts local development chains (Anvil, Hardhat Network) fund at start, printed
# in their documentation and on every start; a key of these sent anywhere sends nothing of the user's
PUBLIC_DEV_KEYS = frozenset(
    {
        "ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80",
        "59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d",
        "5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a",
    }
)

BIP39_PATH = os.path.join(
    os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "bip39-english.txt"
)


@lru_cache(maxsize=1)
def bip39_words() -> frozenset[str]:
    """BIP-39's English list, from which wallets' recovery phrases are made (shipped from python-mnemonic
    0.21, MIT): read once, when a run of words is first weighed."""
    with open(BIP39_PATH, encoding="ascii") as handle:
        return frozenset(handle.read().split())

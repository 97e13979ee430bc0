# What `cmake --install` puts where (GNUInstallDirs), and the same share/echecs
# layout mirrored in the build tree so that a built, not installed, echecs
# finds its files the same way (src/cli/paths.h):
#   bin/echecs
#   libexec/echecs/echecs-server  what `echecs serve` and `echecs reports` run (src/cli/server_main.cpp)
#   share/echecs/web/          the built web client (web/dist: `cmake --build B --target web`, or npm in web/)
#   share/echecs/openings/     the opening sets of `echecs match`
#   share/echecs/puzzles/      the puzzles the server serves (docs/PUZZLES.md)
#   share/doc/echecs/          README.md, LICENSE, docs/*.md
#   share/man/man1/echecs.1
#   share/doc/echecs/examples/ the settings of a cluster node, the HAProxy and nginx examples (deploy/)
#   lib/systemd/system/echecs.service, echecs-node@.service, etc/echecs/echecs.conf (ECHECS_INSTALL_SERVICE)
option(ECHECS_INSTALL_WEB "Install the built web client (fails when it is not built)" ON)
option(ECHECS_INSTALL_SERVICE "Install the systemd units and /etc/echecs/echecs.conf" ON)
set(ECHECS_WEB_DIST "${PROJECT_SOURCE_DIR}/web/dist" CACHE PATH "The built web client")
set(ECHECS_SYSTEMD_UNIT_DIR "lib/systemd/system" CACHE PATH "Where the systemd unit goes (relative: to the prefix)")
set(ECHECS_SHARE ${CMAKE_INSTALL_DATADIR}/echecs)

file(MAKE_DIRECTORY ${CMAKE_BINARY_DIR}/share/echecs)
file(CREATE_LINK ${ECHECS_WEB_DIST} ${CMAKE_BINARY_DIR}/share/echecs/web SYMBOLIC)
file(CREATE_LINK ${PROJECT_SOURCE_DIR}/data/openings ${CMAKE_BINARY_DIR}/share/echecs/openings SYMBOLIC)
file(CREATE_LINK ${PROJECT_SOURCE_DIR}/data/puzzles ${CMAKE_BINARY_DIR}/share/echecs/puzzles SYMBOLIC)

# The web client, built from the committed lock file (writes web/node_modules and web/dist).
find_program(ECHECS_NPM npm)
if(ECHECS_NPM)
  add_custom_target(web
    COMMAND ${ECHECS_NPM} ci --no-audit --no-fund --loglevel=error
    COMMAND ${ECHECS_NPM} run build
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}/web USES_TERMINAL VERBATIM)
endif()

if(ECHECS_INSTALL_WEB)
  install(CODE "if(NOT EXISTS \"${ECHECS_WEB_DIST}/index.html\")
  message(FATAL_ERROR \"the web client is not built (no ${ECHECS_WEB_DIST}/index.html): \"
    \"run `cmake --build ${CMAKE_BINARY_DIR} --target web`, or configure with -DECHECS_INSTALL_WEB=OFF\")
endif()")
  install(DIRECTORY ${ECHECS_WEB_DIST}/ DESTINATION ${ECHECS_SHARE}/web)
endif()
install(DIRECTORY ${PROJECT_SOURCE_DIR}/data/openings ${PROJECT_SOURCE_DIR}/data/puzzles DESTINATION ${ECHECS_SHARE})

configure_file(${PROJECT_SOURCE_DIR}/docs/echecs.1.in ${CMAKE_BINARY_DIR}/echecs.1 @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/echecs.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
file(GLOB ECHECS_DOCS ${PROJECT_SOURCE_DIR}/docs/*.md)
install(FILES ${PROJECT_SOURCE_DIR}/README.md ${PROJECT_SOURCE_DIR}/LICENSE ${ECHECS_DOCS}
        DESTINATION ${CMAKE_INSTALL_DOCDIR})
# Several nodes (docs/SERVER.md): examples for the operator to copy, not
# configuration: nothing reads them where they are installed.
install(FILES ${PROJECT_SOURCE_DIR}/deploy/node.conf DESTINATION ${CMAKE_INSTALL_DOCDIR}/examples)
install(FILES ${PROJECT_SOURCE_DIR}/deploy/haproxy/echecs.cfg DESTINATION ${CMAKE_INSTALL_DOCDIR}/examples/haproxy)
install(FILES ${PROJECT_SOURCE_DIR}/deploy/nginx/echecs.conf DESTINATION ${CMAKE_INSTALL_DOCDIR}/examples/nginx)

# The service: one unit and one configuration file, shared with debian/; and
# the template unit of a cluster's nodes (echecs-node@N reads
# /etc/echecs/node-N.conf, which the operator writes: none is installed, and
# the package enables no instance).
configure_file(${PROJECT_SOURCE_DIR}/cmake/echecs.service.in ${CMAKE_BINARY_DIR}/echecs.service @ONLY)
configure_file(${PROJECT_SOURCE_DIR}/cmake/echecs-node@.service.in ${CMAKE_BINARY_DIR}/echecs-node@.service @ONLY)
configure_file(${PROJECT_SOURCE_DIR}/cmake/echecs.conf.in ${CMAKE_BINARY_DIR}/echecs.conf @ONLY)
if(ECHECS_INSTALL_SERVICE)
  install(FILES ${CMAKE_BINARY_DIR}/echecs.service ${CMAKE_BINARY_DIR}/echecs-node@.service
          DESTINATION ${ECHECS_SYSTEMD_UNIT_DIR})
  install(FILES ${CMAKE_BINARY_DIR}/echecs.conf DESTINATION ${CMAKE_INSTALL_SYSCONFDIR}/echecs)
endif()

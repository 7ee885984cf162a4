# `cmake --install`: the binaries in bin/, their companions (roofcast-cupti, the collector
# library) in libexec/roofcast where profiler/src/companions.cpp looks for them, the bundled
# data in share/roofcast, man pages made by help2man, and roofcast::model as a CMake package.
# `cpack` makes a .deb of the same tree.
include(CMakePackageConfigHelpers)

install(TARGETS roofcast RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# CUDA, CUPTI and ROCm live outside the loader's default path: the GPU programs keep their
# link-time library folders once installed.
foreach(bench IN ITEMS roofcast-bench roofcast-bench-hip)
  if(TARGET ${bench})
    set_target_properties(${bench} PROPERTIES INSTALL_RPATH_USE_LINK_PATH ON)
    install(TARGETS ${bench} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  endif()
endforeach()
foreach(companion IN ITEMS roofcast-cupti roofcast_injection)
  if(TARGET ${companion})
    set_target_properties(${companion} PROPERTIES INSTALL_RPATH_USE_LINK_PATH ON)
    install(TARGETS ${companion} RUNTIME DESTINATION ${ROOFCAST_INSTALL_COMPANIONDIR}
                                 LIBRARY DESTINATION ${ROOFCAST_INSTALL_COMPANIONDIR})
  endif()
endforeach()

install(DIRECTORY ${PROJECT_SOURCE_DIR}/data/devices ${PROJECT_SOURCE_DIR}/data/profiles ${PROJECT_SOURCE_DIR}/data/specs
        DESTINATION ${CMAKE_INSTALL_DATADIR}/roofcast)
# The documentation that --help and the man pages cite: README.md and docs/*.md, as in the source tree.
install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
file(GLOB roofcast_doc_pages ${PROJECT_SOURCE_DIR}/docs/*.md)
install(FILES ${roofcast_doc_pages} DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs)

# roofcast::model for other CMake projects: find_package(roofcast) then link roofcast::model.
install(TARGETS roofcast_model EXPORT roofcastTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/model/include/roofcast/model DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/roofcast)
set(ROOFCAST_CMAKE_PACKAGE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/roofcast)
install(EXPORT roofcastTargets NAMESPACE roofcast:: DESTINATION ${ROOFCAST_CMAKE_PACKAGE_DIR})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/roofcastConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/roofcastConfig.cmake INSTALL_DESTINATION ${ROOFCAST_CMAKE_PACKAGE_DIR})
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/roofcastConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/roofcastConfig.cmake ${CMAKE_CURRENT_BINARY_DIR}/roofcastConfigVersion.cmake
        DESTINATION ${ROOFCAST_CMAKE_PACKAGE_DIR})

# Man pages from each program's --help, when help2man is installed (scripts/setup.sh installs it).
# Each subcommand's page is titled and named after it: ROOFCAST-PREDICT(1), "roofcast-predict - ...".
find_program(ROOFCAST_HELP2MAN help2man)
if(ROOFCAST_HELP2MAN)
  set(man_pages "")
  set(man_dir ${CMAKE_CURRENT_BINARY_DIR}/man)
  # roofcast_man_page(PAGE TARGET DESCRIPTION [SUBCOMMAND]): PAGE.1 from `TARGET [SUBCOMMAND] --help`
  # (a subcommand's description is its own --help's first line).
  function(roofcast_man_page page target description)
    add_custom_command(
      OUTPUT ${man_dir}/${page}.1
      COMMAND ${CMAKE_COMMAND} -E make_directory ${man_dir}
      COMMAND ${CMAKE_COMMAND} -DHELP2MAN=${ROOFCAST_HELP2MAN} -DPROGRAM=$<TARGET_FILE:${target}> "-DSUBCOMMAND=${ARGV3}"
              -DPAGE=${page} -DVERSION=${PROJECT_VERSION} -DDOCDIR=${CMAKE_INSTALL_DOCDIR}
              "-DDESCRIPTION=${description}" -DOUTPUT=${man_dir}/${page}.1
              -P ${PROJECT_SOURCE_DIR}/cmake/roofcast_man_page.cmake
      DEPENDS ${target} ${PROJECT_SOURCE_DIR}/cmake/roofcast_man_page.cmake
      COMMENT "help2man ${page}.1"
      VERBATIM)
    set(man_pages ${man_pages} ${man_dir}/${page}.1 PARENT_SCOPE)
  endfunction()
  roofcast_man_page(roofcast roofcast "predict GPU kernel run times on GPUs they never ran on")
  # Every subcommand registered in cli/main.cpp but bench (below): add a new one here too.
  foreach(command IN ITEMS predict explain validate rank split tune plot report devices profile import merge)
    roofcast_man_page(roofcast-${command} roofcast "" ${command})
  endforeach()
  # `roofcast bench` runs roofcast-bench with its arguments: one page, the program's where it is built.
  if(TARGET roofcast-bench)
    roofcast_man_page(roofcast-bench roofcast-bench "characterize a GPU with micro-benchmarks")
  else()
    roofcast_man_page(roofcast-bench roofcast "" bench)
  endif()
  add_custom_target(roofcast_man_pages ALL DEPENDS ${man_pages})
  install(FILES ${man_pages} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
else()
  message(STATUS "roofcast: no help2man; no man pages (scripts/setup.sh installs it)")
endif()

set(CPACK_PACKAGE_NAME roofcast)
set(CPACK_PACKAGE_VENDOR roofcast)
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Predict GPU kernel run times on GPUs they never ran on (black-box roofline model)")
set(CPACK_PACKAGE_CONTACT "roofcast developers <roofcast@users.noreply.github.com>")
set(CPACK_GENERATOR DEB)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS gnuplot-nox)
set(CPACK_PACKAGE_INSTALL_DIRECTORY roofcast)
include(CPack)

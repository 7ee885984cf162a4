# cmake -DHELP2MAN= -DPROGRAM= [-DSUBCOMMAND=predict] -DPAGE=roofcast-predict -DVERSION= -DDOCDIR= -DOUTPUT=
#       [-DDESCRIPTION=...] -P roofcast_man_page.cmake
# One man page from a program's --help: PAGE(1), titled and named PAGE. A subcommand's page is made
# through a wrapper named PAGE that runs `PROGRAM SUBCOMMAND`, so that help2man names the page after
# it; its NAME line is the subcommand's own description (the first line of its --help).
get_filename_component(work ${OUTPUT} DIRECTORY)
set(work ${work}/${PAGE}.wrapper)
file(MAKE_DIRECTORY ${work})
set(program ${PROGRAM})
if(SUBCOMMAND)
  execute_process(COMMAND ${PROGRAM} ${SUBCOMMAND} --help OUTPUT_VARIABLE help RESULT_VARIABLE code)
  if(NOT code EQUAL 0)
    message(FATAL_ERROR "${PROGRAM} ${SUBCOMMAND} --help failed (exit ${code})")
  endif()
  string(REGEX REPLACE "\n.*" "" DESCRIPTION "${help}")
  file(WRITE ${work}/${PAGE}.in "#!/bin/sh\nexec \"${PROGRAM}\" ${SUBCOMMAND} \"$@\"\n")
  file(COPY ${work}/${PAGE}.in DESTINATION ${work}/bin FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE
       GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
  file(RENAME ${work}/bin/${PAGE}.in ${work}/bin/${PAGE})
  set(program ${work}/bin/${PAGE})
endif()
# help2man's NAME line reads "PAGE \- description": a description starts lower case.
string(SUBSTRING "${DESCRIPTION}" 0 1 first)
string(TOLOWER "${first}" first)
string(SUBSTRING "${DESCRIPTION}" 1 -1 rest)
set(DESCRIPTION "${first}${rest}")
# Where the docs the help cites (README.md, docs/*.md) are once installed.
file(WRITE ${work}/see-also.h2m "[SEE ALSO]\n.BR roofcast (1)\nand one page per command (roofcast-predict, \
roofcast-explain, ...). The paths that the options cite (README.md, docs/*.md) are those of the documentation \
installed with roofcast in PREFIX/${DOCDIR} (PREFIX: where roofcast was installed, such as /usr/local).\n")
execute_process(
  COMMAND ${HELP2MAN} --no-info --no-discard-stderr --section=1 --source=roofcast --version-string=${VERSION}
          "--name=${DESCRIPTION}" --include=${work}/see-also.h2m --output=${OUTPUT} ${program}
  RESULT_VARIABLE code ERROR_VARIABLE err)
if(NOT code EQUAL 0)
  message(FATAL_ERROR "help2man ${PAGE} failed (exit ${code}): ${err}")
endif()

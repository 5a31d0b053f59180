# embed.cmake: writes the file IN into the C source OUT as a NUL-terminated char array
# named NAME. Run as `cmake -DIN=... -DOUT=... -DNAME=... -P embed.cmake` (portable: no
# xxd, no C23 #embed).
file(READ "${IN}" hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
string(REGEX REPLACE "((0x[0-9a-f][0-9a-f],){16})" "\\1\n" bytes "${bytes}")
file(WRITE "${OUT}" "/* Generated from ${IN} by cmake/embed.cmake: do not edit. */\n"
     "extern const char ${NAME}[];\n"
     "const char ${NAME}[] = {\n${bytes}0};\n")

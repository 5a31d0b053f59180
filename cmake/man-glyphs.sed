# man-glyphs.sed: the few non-ASCII characters of heapsampler(1) (real output of the
# command: the error sign, the arrow between a frame and its class, the ellipsis of a cut
# name) as roff glyphs, so that groff renders them in any output, ASCII too (+-, ->, ...).
s/±/\\(+-/g
s/→/\\(->/g
s/…/.../g

# Block timelines of the blend (probe P: globaltimer and %smid per block), rand100k at 8 and 4 pixels, rand1M.
source .gpu/setup.sh
R=$OUT/r; mkdir -p $R
rm -rf /tmp/P; cp -r .gpu/s45/P /tmp/P; cp .gpu/s45/timeline.py /tmp/P/; cd /tmp/P
for s in rand100k:tile-warp:pixels=8 rand100k:tile-warp rand1M:tile-warp biglittle:auto; do sc=${s%%:*}; v=${s#*:}
  timeout 120 python3 timeline.py $sc $v $R/timeline-$sc-${v//[:=]/_}.npz 2>&1 | tail -8
done
cd $OUT && tar czf r.tgz r && rm -rf r

"""Writes what Python's configparser reads from the bundle's config.ini, as the independent truth
for ModelConfig's parser: OUTDIR/config.json."""
import configparser
import json
import pathlib
import sys

root = pathlib.Path(__file__).resolve().parent.parent
out = pathlib.Path(sys.argv[1])
ini = configparser.ConfigParser()
ini.read(root / "Models/DeepFilterNet3/config.ini")
df, net = ini["df"], ini["deepfilternet"]
facts = {
    "sr": df.getint("sr"), "fft_size": df.getint("fft_size"), "hop_size": df.getint("hop_size"),
    "nb_erb": df.getint("nb_erb"), "nb_df": df.getint("nb_df"), "df_order": df.getint("df_order"),
    "df_lookahead": df.getint("df_lookahead"), "conv_lookahead": net.getint("conv_lookahead"),
    "norm_tau": df.getfloat("norm_tau"), "lsnr_min": df.getfloat("lsnr_min"),
    "lsnr_max": df.getfloat("lsnr_max"), "min_nb_erb_freqs": df.getint("min_nb_erb_freqs"),
}
(out / "config.json").write_text(json.dumps(facts, indent=1))

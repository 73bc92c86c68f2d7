"""What every directive shares: the base directive and its Spanish options, the one node
(``widget``) and its HTML, the per-page build data, and the texts the Python side writes.
Never imports a directive or a build step."""

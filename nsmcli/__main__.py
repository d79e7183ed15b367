from nsmcli.cli.main import console

console()
